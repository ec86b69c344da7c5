import type { z } from 'zod';
import { ForbiddenError, NotFoundError, ValidationError, valueError, type ValidationIssue } from '../errors.ts';
import type { RollupDef } from '../engine/rollups.ts';
import type { CompareSpec } from './extensions/compare-window.ts';
import type { AnswerColumns } from './extensions/compared-answer.ts';
import type { DateSpan } from './extensions/compared-dates.ts';
import type { OwnedKind } from '../engine/tenant-catalog.ts';
import { fingerprint } from '../query/cursor.ts';
import type { Fragment } from '../query/sql.ts';
import { parseWith } from '../query/validation.ts';
import { plainPrepare, type CallContext, type PrepareOptions, type PreparedCall, type RollupChoice, type RowsResult, type Statement } from './endpoint.ts';
import { pageResult, readPage } from './read-rows.ts';
import { countUnits, pageStatements, type ShapedReport } from './rows-query.ts';
import type { DateOrder, DateWindow } from './stream-slices.ts';

export type Mode = 'page' | 'stream';

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
  /** The rollups that together could answer this plan, when its shape allows; the engine checks each is current before compiling. */
  rollups?(plan: Plan): readonly { readonly def: RollupDef; readonly categoryId: string }[];
  /** Pure. `rollups` names the rollups found current for this plan: the SQL may read them instead of the facts. */
  compile(plan: Plan, rollups: ReadonlySet<string>): ShapedReport;
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
  /**
   * The components extension, where the report's ratios have parts: the ratios, and the plan asking
   * for their numerators and denominators (the row gains `<ratio>_numerator`, `<ratio>_denominator`).
   */
  readonly components?: { readonly ratios: readonly string[]; plan(plan: Plan): Plan };
  /** The fill extension, where the report can fill date buckets: the plan asking for it, or a 422 at `["query", "fill"]`. */
  fill?(plan: Plan): Plan;
  /** The compare extension: the plan answering beside the compared window, or a 422 at `["query", "compare"]`. */
  compare?(plan: Plan, spec: CompareSpec): Plan;
  /**
   * What identifies and measures the answer's rows, and its window: a report that declares it (and no
   * `compare` or `fill` of its own) takes both over whole answers (src/reports/extensions/answer-extensions.ts).
   */
  readonly answer?: {
    /** How a request gets the date dimension, for fill's refusal without it. */
    readonly dated: string;
    /** The columns, or why fill and compare do not apply to this plan (a 422 at their query parameter). */
    columns(plan: Plan): AnswerColumns | string;
    window(plan: Plan): DateSpan;
    within(plan: Plan, span: DateSpan): Plan;
  };
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

export interface Prepared<Plan> {
  readonly plan: Plan;
  readonly paging: Paging;
  readonly fingerprint: string;
  readonly compiled: ShapedReport;
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
  const p = prepareUnread(report, body, mode, ctx, plainPrepare);
  await enforceGuards(report, p.plan, ctx);
  return p;
}

/** Validates, authorizes, plans and compiles, reading no data: `lookup` says whether a missing rollup starts building. */
export function prepareUnread<Req, Plan>(report: PagedReport<Req, Plan>, body: unknown, mode: Mode, ctx: CallContext, how: PrepareOptions): Prepared<Plan> & { readonly choice: RollupChoice } {
  const lookup = how.lookup;
  const planned = planOf(report, body, mode, ctx);
  const { fill, compare, components } = how.extensions;
  const filled = fill && report.fill ? report.fill(planned.plan) : planned.plan;
  const compared = compare && report.compare ? report.compare(filled, compare) : filled;
  const p = { ...planned, plan: components && report.components ? report.components.plan(compared) : compared };
  const candidates = report.rollups?.(p.plan) ?? [];
  const isCurrent = (u: { def: RollupDef; categoryId: string }) => (lookup === 'use' ? ctx.core.rollups.current(u.def, u.categoryId) : ctx.core.rollups.isCurrent(u.def, u.categoryId));
  const rollups = new Set(candidates.filter(isCurrent).map((u) => u.def.name));
  const choice = { candidates: [...new Set(candidates.map((u) => u.def.name))], chosen: [...rollups] };
  return { ...p, rollups, choice, compiled: report.compile(p.plan, rollups) };
}

/** The guards' statements, for explain: they run before the answer's. */
const guardStatements = <Req, Plan>(report: PagedReport<Req, Plan>, plan: Plan): Statement[] => (report.guards?.(plan) ?? []).map((g) => ({ role: 'guard', queries: () => [g.query] }));

/** A page request prepared (see PreparedCall): `run` checks the guards, then reads the page in one statement. */
export function preparePage<Req, Plan>(report: PagedReport<Req, Plan>, body: unknown, ctx: CallContext, how: PrepareOptions): PreparedCall {
  const p = prepareUnread(report, body, 'page', ctx, how);
  const offset = p.paging.cursor === null ? 0 : ctx.cursors.decode(p.paging.cursor, p.fingerprint, ['body', 'cursor']);
  const range = { after: offset, upTo: offset + p.paging.limit };
  return {
    report: `${report.id} page`,
    plan: p.plan,
    // The page's next_cursor is signed with the engine's cursor key: another key gives other bytes.
    normalized: { plan: p.plan, paging: p.paging, cursorKey: ctx.cursors.keyId },
    statements: [...guardStatements(report, p.plan), { role: 'page', queries: (dialect) => pageStatements(p.compiled, range, dialect) }],
    rollups: p.choice,
    run: async () => {
      await enforceGuards(report, p.plan, ctx);
      return readPrepared(report, p, range, ctx);
    },
  };
}

/** A stream request prepared; its statement is the whole answer in one (the stream reads it in slices). */
export function prepareStream<Req, Plan>(report: PagedReport<Req, Plan>, body: unknown, ctx: CallContext, how: PrepareOptions, stream: (p: Prepared<Plan>) => RowsResult): PreparedCall {
  const p = prepareUnread(report, body, 'stream', ctx, how);
  return {
    report: `${report.id} stream`,
    plan: p.plan,
    normalized: { plan: p.plan, paging: p.paging },
    statements: [...guardStatements(report, p.plan), { role: 'stream (read in slices of units)', queries: (dialect) => pageStatements(p.compiled, { after: 0, upTo: p.paging.maxResults }, dialect, p.paging.maxResults) }],
    rollups: p.choice,
    run: async () => {
      await enforceGuards(report, p.plan, ctx);
      return stream(p);
    },
  };
}

/** Runs the report's data guards; the first refusal is a 422. */
export async function enforceGuards<Req, Plan>(report: PagedReport<Req, Plan>, plan: Plan, ctx: CallContext): Promise<void> {
  for (const guard of report.guards?.(plan) ?? []) {
    const result = await ctx.core.backend.read(guard.query, ctx.signal);
    const issue = guard.refuse(Object.values(result.columns)[0]?.[0]);
    if (issue) throw new ValidationError([issue]);
  }
}

export async function runPage<Req, Plan>(report: PagedReport<Req, Plan>, body: unknown, ctx: CallContext): Promise<RowsResult> {
  return preparePage(report, body, ctx, plainPrepare).run();
}

async function readPrepared<Req, Plan>(report: PagedReport<Req, Plan>, p: Prepared<Plan>, range: { after: number; upTo: number }, ctx: CallContext): Promise<RowsResult> {
  const { head, rows } = await readPage(ctx, p.compiled, range);
  const counted = countUnits(rows);
  const facts: PageFacts = {
    total: head.total,
    count: counted.units,
    rows: counted.rows,
    nextCursor: range.upTo < head.total ? ctx.cursors.encode(range.upTo, p.fingerprint) : null,
    cursor: p.paging.cursor,
    limit: p.paging.limit,
    sqlInfo: head.info,
  };
  return pageResult(p.compiled.shape, report.info(p.plan, facts), rows);
}
