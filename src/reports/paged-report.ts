import { setImmediate } from 'node:timers/promises';
import type { DuckDBDataChunk, DuckDBResult } from '@duckdb/node-api';
import type { z } from 'zod';
import { ForbiddenError, NotFoundError, ValidationError, type ValidationIssue } from '../errors.ts';
import type { RollupDef } from '../engine/rollups.ts';
import type { OwnedKind } from '../engine/tenant-catalog.ts';
import { fingerprint } from '../query/cursor.ts';
import { render, sql, type Fragment } from '../query/sql.ts';
import { parseWith } from '../query/validation.ts';
import type { CallContext, Endpoint, EndpointInput, EndpointResult, StreamEvent } from './endpoint.ts';

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
   * The number of page units, computed without building the rows. With it a stream sends its summary
   * before the rows are computed; without it, after (the summary counts them).
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
  readonly nextCursor: string | null;
  readonly cursor: string | null;
  readonly limit: number;
  /** The `info` JSON the report's SQL computed. */
  readonly sqlInfo: Record<string, unknown>;
}

/** A v2 report with `{info, data}` pages and an SSE stream. Everything that differs between reports is here. */
export interface PagedReport<Req, Plan> {
  readonly id: string;
  readonly path: string;
  readonly streamPath: string | null;
  readonly name: string;
  readonly summary: string;
  readonly tags: readonly string[];
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
  compile(plan: Plan, rollups: ReadonlySet<string>): CompiledReport;
  info(plan: Plan, page: PageFacts): Record<string, unknown>;
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
  readonly compiled: CompiledReport;
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
  return { ...p, compiled: report.compile(p.plan, rollups) };
}

/** `prepare`, asking the engine first whether the rollup that could answer the plan is current. */
export async function prepareRead<Req, Plan>(report: PagedReport<Req, Plan>, body: unknown, mode: Mode, ctx: CallContext): Promise<Prepared<Plan>> {
  const p = planOf(report, body, mode, ctx);
  const use = report.rollup?.(p.plan) ?? null;
  const current = use !== null && (await ctx.core.rollups.current(use.def, use.categoryId));
  return { ...p, compiled: report.compile(p.plan, current ? new Set([use.def.name]) : noRollups) };
}

/**
 * The header row (unit 0: total and info) and the window's rows. With the report's own `total`, `rows` is
 * read once, by the window, so DuckDB builds only the rows the window keeps.
 */
export function pagedSql(c: CompiledReport, window: Fragment): Fragment {
  return sql`WITH ${c.ctes},
rows AS ${c.total ? sql`` : sql`MATERIALIZED `}(${c.rows}),
info AS (${c.info})
SELECT 0 AS unit, 0 AS seq, json_object('total', (${c.total ?? sql`SELECT coalesce(max(unit), 0) FROM rows`}), 'info', (SELECT * FROM info))::VARCHAR AS payload
UNION ALL
(${window})
ORDER BY unit, seq`;
}

export async function runPage<Req, Plan>(report: PagedReport<Req, Plan>, body: unknown, ctx: CallContext): Promise<{ info: Record<string, unknown>; rows: string[] }> {
  const p = await prepareRead(report, body, 'page', ctx);
  const offset = p.paging.cursor === null ? 0 : ctx.cursors.decode(p.paging.cursor, p.fingerprint, ['body', 'cursor']);
  const query = render(pagedSql(p.compiled, sql`SELECT unit, seq, row FROM rows WHERE unit > ${offset} AND unit <= ${offset + p.paging.limit}`));
  const result = await ctx.core.pool.read(query.text, query.params as never);
  const payloads = result.getColumnsJS()[2] as string[];
  const head = JSON.parse(payloads[0]!) as { total: number; info: Record<string, unknown> };
  const units = new Set((result.getColumnsJS()[0] as (number | bigint)[]).slice(1).map(Number));
  const next = offset + p.paging.limit;
  const facts: PageFacts = {
    total: head.total,
    count: units.size,
    nextCursor: next < head.total ? ctx.cursors.encode(next, p.fingerprint) : null,
    cursor: p.paging.cursor,
    limit: p.paging.limit,
    sqlInfo: head.info ?? {},
  };
  return { info: report.info(p.plan, facts), rows: payloads.slice(1) };
}

/**
 * Streams `summary` then one `result` per row. The query runs on its own connection and is pulled a
 * chunk at a time, so JS holds one chunk (DuckDB holds the ordered result); stopping the iteration
 * interrupts the query. A bad request is refused here, before the stream starts.
 */
export async function runStream<Req, Plan>(report: PagedReport<Req, Plan>, body: unknown, ctx: CallContext): Promise<AsyncGenerator<StreamEvent>> {
  return streamPrepared(report, await prepareRead(report, body, 'stream', ctx), ctx);
}

/** Rows a stream pulls across from DuckDB as one string. */
const streamBatch = 1024;

async function* streamPrepared<Req, Plan>(report: PagedReport<Req, Plan>, p: Prepared<Plan>, ctx: CallContext): AsyncGenerator<StreamEvent> {
  const c = p.compiled;
  const cap = p.paging.maxResults;
  const sent = cap === null ? sql`SELECT unit, seq, row FROM rows` : sql`SELECT unit, seq, row FROM rows ORDER BY unit, seq LIMIT ${cap}`;
  // TRICKY: rows cross into JS in batches of page units, joined by newlines (row JSON is compact, so it holds
  // none): reading one string per row cost more than building the rows.
  const batches = sql`SELECT 1 + (u - 1) // ${streamBatch} AS unit, 0 AS seq, string_agg(r, chr(10) ORDER BY u, s) AS row
FROM (SELECT unit AS u, seq AS s, row AS r FROM (${sent})) GROUP BY 1`;
  const summary = (payload: string): StreamEvent => {
    const head = JSON.parse(payload) as { total: number; info: Record<string, unknown> };
    const units = cap === null ? head.total : Math.min(head.total, cap);
    const facts: PageFacts = { total: head.total, count: units, nextCursor: null, cursor: null, limit: units, sqlInfo: head.info ?? {} };
    return { event: 'summary', data: JSON.stringify(report.info(p.plan, facts)) };
  };
  const conn = await ctx.core.pool.instance.connect();
  let finished = false;
  try {
    if (c.total) {
      // TRICKY: the summary and the rows are two queries; one transaction gives both the same snapshot.
      await conn.run('BEGIN TRANSACTION');
      const head = render(sql`WITH ${c.ctes}, info AS (${c.info}) SELECT json_object('total', (${c.total}), 'info', (SELECT * FROM info))::VARCHAR`);
      yield summary(String((await conn.runAndReadAll(head.text, head.params as never)).getRows()[0]![0]));
      const rows = render(sql`WITH ${c.ctes}, rows AS (${c.rows}) ${batches} ORDER BY unit`);
      yield* results(await conn.stream(rows.text, rows.params as never), 0);
      await conn.run('COMMIT');
    } else {
      const query = render(pagedSql(c, batches));
      const result = await conn.stream(query.text, query.params as never);
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) throw new Error('a paged query returned no header row');
      yield summary(String(chunk.getColumnVector(2).getItem(0)));
      yield* batchEvents(chunk, 1);
      yield* results(result, 0);
    }
    finished = true;
  } finally {
    if (!finished) conn.interrupt();
    conn.closeSync();
  }
}

async function* results(result: DuckDBResult, from: number): AsyncGenerator<StreamEvent> {
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) return;
    yield* batchEvents(chunk, from);
  }
}

/**
 * One `result` event per row of each batch. Between batches the event loop gets a turn: a consumer that
 * never waits on I/O would otherwise hold it for the whole chunk.
 */
async function* batchEvents(chunk: DuckDBDataChunk, from: number): AsyncGenerator<StreamEvent> {
  const payloads = chunk.getColumnVector(2);
  for (let i = from; i < chunk.rowCount; i++) {
    for (const row of String(payloads.getItem(i)).split('\n')) yield { event: 'result', data: row };
    await setImmediate();
  }
}

/** The page endpoint and, when the report has one, its stream endpoint. */
export function pagedEndpoints<Req, Plan>(report: PagedReport<Req, Plan>): Endpoint[] {
  const base = { method: 'POST' as const, group: 'reports' as const, tags: report.tags, schemas: { body: report.schema } };
  const page: Endpoint = {
    ...base,
    path: report.path,
    name: report.name,
    summary: report.summary,
    stream: false,
    async handle(input: EndpointInput, ctx: CallContext): Promise<EndpointResult> {
      const { info, rows } = await runPage(report, input.body, ctx);
      return { kind: 'json', status: 200, json: `{"info":${JSON.stringify(info)},"data":[${rows.join(',')}]}` };
    },
  };
  if (!report.streamPath) return [page];
  const stream: Endpoint = {
    ...base,
    path: report.streamPath,
    name: `${report.name}Stream`,
    summary: `${report.summary} (Server-Sent Events: one summary event, then one result event per row)`,
    stream: true,
    async handle(input: EndpointInput, ctx: CallContext): Promise<EndpointResult> {
      return { kind: 'stream', events: await runStream(report, input.body, ctx) };
    },
  };
  return [page, stream];
}
