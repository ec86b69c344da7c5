import { ValidationError } from '../errors.ts';
import type { RollupDef } from '../engine/rollups.ts';
import { fingerprint } from '../query/cursor.ts';
import { parseWith } from '../query/validation.ts';
import {
  plainPrepare,
  type CallContext,
  type PrepareOptions,
  type PreparedCall,
  type RollupChoice,
  type RowsResult,
  type Statement,
} from './endpoint.ts';
import { authorize, type Mode, type PagedReport, type PageFacts, type Paging } from './paged-report.ts';
import { pageResult, readPage } from './read-rows.ts';
import { countUnits, pageStatements, type ShapedReport } from './rows-query.ts';

/**
 * A paged report's request prepared: validated, authorized, planned (extensions applied) and compiled,
 * with the rollups it may read; then read as a page, or handed to the stream.
 */
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
  return {
    plan,
    paging: report.paging(req, mode),
    fingerprint: fingerprint({ report: report.id, org: ctx.organizationId, plan }),
  };
}

/** Validates, authorizes, plans and compiles with no database; `rollups` are taken as current. */
export function prepare<Req, Plan>(
  report: PagedReport<Req, Plan>,
  body: unknown,
  mode: Mode,
  ctx: CallContext,
  rollups = noRollups,
): Prepared<Plan> {
  const p = planOf(report, body, mode, ctx);
  return { ...p, rollups, compiled: report.compile(p.plan, rollups) };
}

/** `prepare`, then the data guards, asking the engine whether the rollup that could answer the plan is current. */
export async function prepareRead<Req, Plan>(
  report: PagedReport<Req, Plan>,
  body: unknown,
  mode: Mode,
  ctx: CallContext,
): Promise<Prepared<Plan>> {
  const p = prepareUnread(report, body, mode, ctx, plainPrepare);
  await enforceGuards(report, p.plan, ctx);
  return p;
}

/** Validates, authorizes, plans and compiles, reading no data: `lookup` says whether a missing rollup starts building. */
export function prepareUnread<Req, Plan>(
  report: PagedReport<Req, Plan>,
  body: unknown,
  mode: Mode,
  ctx: CallContext,
  how: PrepareOptions,
): Prepared<Plan> & { readonly choice: RollupChoice } {
  const lookup = how.lookup;
  const planned = planOf(report, body, mode, ctx);
  const { fill, compare, components } = how.extensions;
  const filled = fill && report.fill ? report.fill(planned.plan) : planned.plan;
  const compared = compare && report.compare ? report.compare(filled, compare) : filled;
  const p = { ...planned, plan: components && report.components ? report.components.plan(compared) : compared };
  const candidates = report.rollups?.(p.plan) ?? [];
  const isCurrent = (u: { def: RollupDef; categoryId: string }) =>
    lookup === 'use' ? ctx.core.rollups.current(u.def, u.categoryId) : ctx.core.rollups.isCurrent(u.def, u.categoryId);
  const rollups = new Set(candidates.filter(isCurrent).map((u) => u.def.name));
  const choice = { candidates: [...new Set(candidates.map((u) => u.def.name))], chosen: [...rollups] };
  return { ...p, rollups, choice, compiled: report.compile(p.plan, rollups) };
}

/** The guards' statements, for explain: they run before the answer's. */
const guardStatements = <Req, Plan>(report: PagedReport<Req, Plan>, plan: Plan): Statement[] =>
  (report.guards?.(plan) ?? []).map((g) => ({ role: 'guard', queries: () => [g.query] }));

/** A page request prepared (see PreparedCall): `run` checks the guards, then reads the page in one statement. */
export function preparePage<Req, Plan>(
  report: PagedReport<Req, Plan>,
  body: unknown,
  ctx: CallContext,
  how: PrepareOptions,
): PreparedCall {
  const p = prepareUnread(report, body, 'page', ctx, how);
  const offset = p.paging.cursor === null ? 0 : ctx.cursors.decode(p.paging.cursor, p.fingerprint, ['body', 'cursor']);
  const range = { after: offset, upTo: offset + p.paging.limit };
  return {
    report: `${report.id} page`,
    plan: p.plan,
    // The page's next_cursor is signed with the engine's cursor key: another key gives other bytes.
    normalized: { plan: p.plan, paging: p.paging, cursorKey: ctx.cursors.keyId },
    statements: [
      ...guardStatements(report, p.plan),
      { role: 'page', queries: (dialect) => pageStatements(p.compiled, range, dialect) },
    ],
    rollups: p.choice,
    run: async () => {
      await enforceGuards(report, p.plan, ctx);
      return readPrepared(report, p, range, ctx);
    },
  };
}

/** A stream request prepared; its statement is the whole answer in one (the stream reads it in slices). */
export function prepareStream<Req, Plan>(
  report: PagedReport<Req, Plan>,
  body: unknown,
  ctx: CallContext,
  how: PrepareOptions,
  stream: (p: Prepared<Plan>) => RowsResult,
): PreparedCall {
  const p = prepareUnread(report, body, 'stream', ctx, how);
  return {
    report: `${report.id} stream`,
    plan: p.plan,
    normalized: { plan: p.plan, paging: p.paging },
    statements: [
      ...guardStatements(report, p.plan),
      {
        role: 'stream (read in slices of units)',
        queries: (dialect) =>
          pageStatements(p.compiled, { after: 0, upTo: p.paging.maxResults }, dialect, p.paging.maxResults),
      },
    ],
    rollups: p.choice,
    run: async () => {
      await enforceGuards(report, p.plan, ctx);
      return stream(p);
    },
  };
}

/** Runs the report's data guards; the first refusal is a 422. */
export async function enforceGuards<Req, Plan>(
  report: PagedReport<Req, Plan>,
  plan: Plan,
  ctx: CallContext,
): Promise<void> {
  for (const guard of report.guards?.(plan) ?? []) {
    const result = await ctx.core.backend.read(guard.query, ctx.signal);
    const issue = guard.refuse(Object.values(result.columns)[0]?.[0]);
    if (issue) throw new ValidationError([issue]);
  }
}

export async function runPage<Req, Plan>(
  report: PagedReport<Req, Plan>,
  body: unknown,
  ctx: CallContext,
): Promise<RowsResult> {
  return preparePage(report, body, ctx, plainPrepare).run();
}

async function readPrepared<Req, Plan>(
  report: PagedReport<Req, Plan>,
  p: Prepared<Plan>,
  range: { after: number; upTo: number },
  ctx: CallContext,
): Promise<RowsResult> {
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
