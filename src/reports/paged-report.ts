import { setImmediate } from 'node:timers/promises';
import type { z } from 'zod';
import { ForbiddenError, NotFoundError, ValidationError, valueError, type ValidationIssue } from '../errors.ts';
import type { RollupDef } from '../engine/rollups.ts';
import type { OwnedKind } from '../engine/tenant-catalog.ts';
import { fingerprint } from '../query/cursor.ts';
import { render, sql, type Fragment } from '../query/sql.ts';
import { parseWith } from '../query/validation.ts';
import type { CallContext, Endpoint, EndpointInput, EndpointResult, RowsPart, RowsResult, StreamEvent } from './endpoint.ts';
import { sliceBatch } from '../engine/column-reads.ts';
import { streamPayloads } from './stream-payloads-legacy.ts';
import { pageResult, readPage } from './read-rows.ts';
import { countUnits, headOf, headQuery, pageQuery, type Head as ShapedHead, type ShapedReport, type UnitRange } from './rows-query.ts';
import { streamStatements } from './stream-payloads.ts';
import { dictionaryColumns } from '../query/row-shape.ts';
import { dateSlices, unitSlices, type DateOrder, type DateWindow, type SliceCounter } from './stream-slices.ts';

export type Mode = 'page' | 'stream';

/**
 * A report's SQL in three parts over shared CTEs: `rows` yields `unit, seq, row` where `unit` is the
 * 1-based ordinal of the page unit (a row, a product, a channel, a section) and `row` is the row's
 * JSON; `info` yields one JSON value for the info block.
 */
export interface CompiledReport {
  readonly ctes: Fragment;
  readonly rows: Fragment;
  readonly info: Fragment;
  /**
   * The number of page units, computed without building the rows. With it a page builds only its own
   * rows, and a stream sends its summary before the rows are computed.
   */
  readonly total?: Fragment;
}

export interface Paging {
  readonly limit: number;
  readonly cursor: string | null;
  readonly maxResults: number | null;
}

export interface PageFacts {
  /** Page units in the whole result. */
  readonly total: number;
  /** Page units on this page (or in the stream). */
  readonly count: number;
  /** Rows on this page (or in the stream). */
  readonly rows: number;
  readonly nextCursor: string | null;
  readonly cursor: string | null;
  readonly limit: number;
  /** The `info` JSON the report's SQL computed. */
  readonly sqlInfo: Record<string, unknown>;
}

/**
 * A limit that depends on the data, checked with one scalar query after the plan and before the report
 * runs (and before a stream sends anything): `refuse` turns the value into a 422, or null to go on.
 */
export interface DataGuard {
  readonly query: Fragment;
  refuse(value: unknown): ValidationIssue | null;
}

/** Another path serving the same report (same request, same cursors). */
export interface ReportAlias {
  readonly path: string;
  readonly streamPath: string | null;
  readonly name: string;
}

/** A v2 report with `{info, data}` pages and an SSE stream. Everything that differs between reports is here. */
export interface PagedReport<Req, Plan> {
  readonly id: string;
  readonly path: string;
  readonly streamPath: string | null;
  readonly name: string;
  readonly summary: string;
  readonly tags: readonly string[];
  readonly aliases?: readonly ReportAlias[];
  readonly schema: z.ZodType<Req>;
  /** Semantic checks after the schema: filter fields, combinations. Locations start with `body`. */
  check(req: Req, mode: Mode): ValidationIssue[];
  /** The tenant objects the request names, checked before any data is read. */
  owned(req: Req): readonly { kind: OwnedKind; id: string }[];
  paging(req: Req, mode: Mode): Paging;
  /** Pure: the same request, org and clock give the same plan. */
  plan(req: Req, ctx: { organizationId: string; now: Date }): Plan;
  /** A rollup that could answer this plan, when its shape allows; the engine checks it is current before compiling. */
  rollup?(plan: Plan): { readonly def: RollupDef; readonly categoryId: string } | null;
  /** Pure. `rollups` names the rollups found current for this plan: the SQL may read them instead of the facts. */
  compile(plan: Plan, rollups: ReadonlySet<string>): CompiledReport | ShapedReport;
  guards?(plan: Plan): readonly DataGuard[];
  /**
   * An answer that leads with the date can be streamed one window of days at a time: `order` says how
   * it leads (a calendar bucket ascending, or newest first), or null when it does not; `within` is the
   * same plan over a part of its window.
   */
  readonly byDate?: {
    order(plan: Plan): DateOrder | null;
    window(plan: Plan): DateWindow;
    within(plan: Plan, start: string, end: string): Plan;
  };
  info(plan: Plan, page: PageFacts): Record<string, unknown>;
}

/** Refuses request fields a mode does not take (a stream that rejects `limit` rather than ignoring it). */
export function refuseFields(req: object, fields: readonly string[], why: string): ValidationIssue[] {
  const given = req as Record<string, unknown>;
  return fields.filter((f) => given[f] !== undefined && given[f] !== null).map((f) => valueError(['body', f], `${f} ${why}`, given[f]));
}

/** Refuses an object of another organization (403) or of none (404), before anything is read. */
export function authorize(ctx: CallContext, objects: readonly { kind: OwnedKind; id: string }[]): void {
  for (const { kind, id } of objects) {
    const owner = ctx.core.catalog.ownerOf(kind, id);
    if (owner === undefined) throw new NotFoundError(`${kind} ${id} not found`);
    if (owner !== ctx.organizationId) throw new ForbiddenError(`this API key has no access to ${kind} ${id}`);
  }
}

interface Prepared<Plan> {
  readonly plan: Plan;
  readonly paging: Paging;
  readonly fingerprint: string;
  readonly compiled: CompiledReport | ShapedReport;
  /** The rollups found current, which every statement of the request may read. */
  readonly rollups: ReadonlySet<string>;
}

const noRollups: ReadonlySet<string> = new Set();

function planOf<Req, Plan>(report: PagedReport<Req, Plan>, body: unknown, mode: Mode, ctx: CallContext) {
  const req = parseWith(report.schema, body);
  const issues = report.check(req, mode);
  if (issues.length > 0) throw new ValidationError(issues);
  authorize(ctx, report.owned(req));
  const plan = report.plan(req, { organizationId: ctx.organizationId, now: ctx.now });
  return { plan, paging: report.paging(req, mode), fingerprint: fingerprint({ report: report.id, org: ctx.organizationId, plan }) };
}

/** Validates, authorizes, plans and compiles with no database; `rollups` are taken as current. */
export function prepare<Req, Plan>(report: PagedReport<Req, Plan>, body: unknown, mode: Mode, ctx: CallContext, rollups = noRollups): Prepared<Plan> {
  const p = planOf(report, body, mode, ctx);
  return { ...p, rollups, compiled: report.compile(p.plan, rollups) };
}

/** `prepare`, then the data guards, asking the engine whether the rollup that could answer the plan is current. */
export async function prepareRead<Req, Plan>(report: PagedReport<Req, Plan>, body: unknown, mode: Mode, ctx: CallContext): Promise<Prepared<Plan>> {
  const p = planOf(report, body, mode, ctx);
  await enforceGuards(report, p.plan, ctx);
  const use = report.rollup?.(p.plan) ?? null;
  const current = use !== null && ctx.core.rollups.current(use.def, use.categoryId);
  const rollups = current ? new Set([use.def.name]) : noRollups;
  return { ...p, rollups, compiled: report.compile(p.plan, rollups) };
}

/**
 * The query of one page (or stream): a head row (unit 0) with the counts and the info JSON, then the
 * window's rows, or `output` of them (a stream reads them in batches). With the report's own `total`,
 * `rows` is read once, by the window, so DuckDB builds only the rows the window keeps.
 */
export function pagedSql(c: CompiledReport, window: Fragment, output: Fragment = sql`SELECT unit, seq, row FROM page`): Fragment {
  return sql`WITH ${c.ctes},
rows AS ${c.total ? sql`` : sql`MATERIALIZED `}(${c.rows}),
info AS (${c.info}),
page AS (${window})
SELECT 0 AS unit, 0 AS seq, json_object(
  'total', (${c.total ?? sql`SELECT coalesce(max(unit), 0) FROM rows`}),
  'units', (SELECT count(DISTINCT unit) FROM page), 'rows', (SELECT count(*) FROM page),
  'info', (SELECT * FROM info))::VARCHAR AS payload
UNION ALL
(${output})
ORDER BY unit, seq`;
}

interface Head {
  readonly total: number;
  /** Absent when the report counts its own total: then rows and units are one. */
  readonly units?: number;
  readonly rows?: number;
  readonly info: Record<string, unknown> | null;
}

/** Runs the report's data guards; the first refusal is a 422. */
export async function enforceGuards<Req, Plan>(report: PagedReport<Req, Plan>, plan: Plan, ctx: CallContext): Promise<void> {
  for (const guard of report.guards?.(plan) ?? []) {
    const query = render(guard.query);
    const result = await ctx.core.pool.read(query.text, query.params as never, ctx.signal);
    const issue = guard.refuse(result.getRowsJS()[0]?.[0]);
    if (issue) throw new ValidationError([issue]);
  }
}

export async function runPage<Req, Plan>(report: PagedReport<Req, Plan>, body: unknown, ctx: CallContext): Promise<{ info: Record<string, unknown>; rows: string[] } | RowsResult> {
  const p = await prepareRead(report, body, 'page', ctx);
  const offset = p.paging.cursor === null ? 0 : ctx.cursors.decode(p.paging.cursor, p.fingerprint, ['body', 'cursor']);
  const next = offset + p.paging.limit;
  const facts = (total: number, units: number, rows: number, sqlInfo: Record<string, unknown>): PageFacts => ({
    total,
    count: units,
    rows,
    nextCursor: next < total ? ctx.cursors.encode(next, p.fingerprint) : null,
    cursor: p.paging.cursor,
    limit: p.paging.limit,
    sqlInfo,
  });
  if ('shape' in p.compiled) {
    const { head, rows } = await readPage(ctx, p.compiled, { after: offset, upTo: next });
    const counted = countUnits(rows);
    return pageResult(p.compiled.shape, report.info(p.plan, facts(head.total, counted.units, counted.rows, head.info)), rows);
  }
  const query = render(pagedSql(p.compiled, sql`SELECT unit, seq, row FROM rows WHERE unit > ${offset} AND unit <= ${next}`));
  const result = await ctx.core.pool.read(query.text, query.params as never, ctx.signal);
  const payloads = result.getColumnsJS()[2] as string[];
  const head = JSON.parse(payloads[0]!) as Head;
  return { info: report.info(p.plan, facts(head.total, head.units ?? 0, head.rows ?? head.units ?? 0, head.info ?? {})), rows: payloads.slice(1) };
}

function rowsResult(framing: 'page' | 'stream', c: ShapedReport, read: () => AsyncGenerator<RowsPart>): RowsResult {
  return { kind: 'rows', framing, shape: c.shape, read };
}

/**
 * A stream of a shaped report: the head statement, then the rows in order-preserving slices of units
 * (see `sliceRanges`), each pulled a chunk at a time on the stream's own connection. max_results caps
 * rows: with `unitRows` the head says how many units and rows that sends, and the last unit may be cut.
 */
function shapedStream<Req, Plan>(report: PagedReport<Req, Plan>, p: Prepared<Plan>, c: ShapedReport, ctx: CallContext): RowsResult {
  const cap = p.paging.maxResults;
  const order = report.byDate?.order(p.plan) ?? null;
  const sent: SliceCounter = { lastUnit: 0 };
  const sentOf = (head: ShapedHead) => head.sent ?? { units: unitsSent(head.total, cap), rows: unitsSent(head.total, cap) };
  const slices = (units: number) => {
    if (order === null || !report.byDate) return unitSlices(c, units);
    const byDate = report.byDate;
    return dateSlices(byDate.window(p.plan), order, (start, end) => report.compile(byDate.within(p.plan, start, end), p.rollups) as ShapedReport, units, sent);
  };
  // TRICKY: an answer read in one statement anyway (every group aggregated before the first row) takes
  // its head from that statement's first row, so nothing is computed twice.
  const whole = order === null && c.sliceUnits === Number.POSITIVE_INFINITY;
  const statements = whole
    ? streamStatements(ctx, 'first row', () => [render(pageQuery(c, { after: 0, upTo: cap }, cap))], dictionaryColumns(c.shape))
    : streamStatements(ctx, headQuery(c, cap), (h) => slices(sentOf(headOf(h)).units), dictionaryColumns(c.shape));
  return rowsResult('stream', c, async function* () {
    let rowsLeft = Number.POSITIVE_INFINITY;
    for await (const part of statements) {
      if ('batch' in part) {
        const units = part.batch.columns.unit!;
        sent.lastUnit = Math.max(sent.lastUnit, Number(units[units.length - 1] ?? 0));
        if (rowsLeft <= 0) continue;
        const batch = sliceBatch(part.batch, 0, rowsLeft);
        rowsLeft -= batch.length;
        yield { batch };
        continue;
      }
      const head = headOf(part.head);
      const { units, rows } = sentOf(head);
      if (head.sent) rowsLeft = rows;
      yield { head: report.info(p.plan, { total: head.total, count: units, rows, nextCursor: null, cursor: null, limit: units, sqlInfo: head.info }) };
    }
  });
}

const unitsSent = (total: number, cap: number | null) => (cap === null ? total : Math.min(total, cap));

/**
 * Streams `summary` then one `result` per row. Validation and data guards run before the stream is
 * returned, so a refusal is a 422 and never a broken stream. The query runs on its own connection and
 * is pulled a chunk at a time, so JS holds one chunk (DuckDB holds the ordered result); stopping the
 * iteration interrupts the query.
 */
export async function runStream<Req, Plan>(report: PagedReport<Req, Plan>, body: unknown, ctx: CallContext): Promise<AsyncGenerator<StreamEvent> | RowsResult> {
  const p = await prepareRead(report, body, 'stream', ctx);
  if ('shape' in p.compiled) return shapedStream(report, p, p.compiled, ctx);
  return streamPrepared(report, p as Prepared<Plan> & { compiled: CompiledReport }, ctx);
}

/** Rows a stream pulls across from DuckDB as one string. */
const streamBatch = 1024;

async function* streamPrepared<Req, Plan>(report: PagedReport<Req, Plan>, p: Prepared<Plan> & { compiled: CompiledReport }, ctx: CallContext): AsyncGenerator<StreamEvent> {
  const c = p.compiled;
  const cap = p.paging.maxResults;
  // TRICKY: a report that counts its own total numbers its rows 1..total, one row per unit, so `unit <= cap`
  // is the first `cap` rows, and unlike a LIMIT it reaches below the projection: only those rows are built.
  const sent = cap === null ? sql`SELECT unit, seq, row FROM rows` : c.total ? sql`SELECT unit, seq, row FROM rows WHERE unit <= ${cap}` : sql`SELECT unit, seq, row FROM rows ORDER BY unit, seq LIMIT ${cap}`;
  // TRICKY: rows cross into JS in batches joined by newlines (row JSON is compact, so it holds none):
  // reading one string per row cost more than building the rows.
  const batches = (from: Fragment) => sql`SELECT 1 + (unit - 1) // ${streamBatch} AS unit, 0 AS seq, string_agg(row, chr(10) ORDER BY unit, seq) AS row FROM ${from} GROUP BY 1`;
  const queries = c.total
    ? [
        render(sql`WITH ${c.ctes}, info AS (${c.info}) SELECT 0 AS unit, 0 AS seq, json_object('total', (${c.total}), 'info', (SELECT * FROM info))::VARCHAR AS payload`),
        render(sql`WITH ${c.ctes}, rows AS (${c.rows}) ${batches(sql`(${sent})`)} ORDER BY unit`),
      ]
    : [render(pagedSql(c, sent, batches(sql`page`)))];
  let head: Head | undefined;
  for await (const payload of streamPayloads(queries, ctx)) {
    if (head) {
      for (const row of payload.split('\n')) yield { event: 'result', data: row };
      await setImmediate();
      continue;
    }
    head = JSON.parse(payload) as Head;
    const units = head.units ?? (cap === null ? head.total : Math.min(head.total, cap));
    const facts: PageFacts = { total: head.total, count: units, rows: head.rows ?? units, nextCursor: null, cursor: null, limit: units, sqlInfo: head.info ?? {} };
    yield { event: 'summary', data: JSON.stringify(report.info(p.plan, facts)) };
  }
}

/** The page endpoint and, when the report has one, its stream endpoint; the same again for each alias path. */
export function pagedEndpoints<Req, Plan>(report: PagedReport<Req, Plan>): Endpoint[] {
  const main = endpointsAt(report, { path: report.path, streamPath: report.streamPath, name: report.name }, report.summary);
  return [...main, ...(report.aliases ?? []).flatMap((a) => endpointsAt(report, a, `${report.summary} (same as ${report.path})`))];
}

function endpointsAt<Req, Plan>(report: PagedReport<Req, Plan>, at: ReportAlias, summary: string): Endpoint[] {
  const base = { method: 'POST' as const, group: 'reports' as const, tags: report.tags, schemas: { body: report.schema } };
  const page: Endpoint = {
    ...base,
    path: at.path,
    name: at.name,
    summary,
    stream: false,
    async handle(input: EndpointInput, ctx: CallContext): Promise<EndpointResult> {
      const page = await runPage(report, input.body, ctx);
      if ('kind' in page) return page;
      return { kind: 'json', status: 200, json: `{"info":${JSON.stringify(page.info)},"data":[${page.rows.join(',')}]}` };
    },
  };
  if (!at.streamPath) return [page];
  const stream: Endpoint = {
    ...base,
    path: at.streamPath,
    name: `${at.name}Stream`,
    summary: `${summary} (Server-Sent Events: one summary event, then one result event per row)`,
    stream: true,
    async handle(input: EndpointInput, ctx: CallContext): Promise<EndpointResult> {
      const stream = await runStream(report, input.body, ctx);
      return 'kind' in stream ? stream : { kind: 'stream', events: stream };
    },
  };
  return [page, stream];
}

/** The statement of one page of units. */
export function pageStatement(c: CompiledReport | ShapedReport, range: UnitRange): Fragment {
  if ('shape' in c) return pageQuery(c, range);
  return pagedSql(c, sql`SELECT unit, seq, row FROM rows WHERE unit > ${range.after} AND unit <= ${range.upTo}`);
}
