import type { z } from 'zod';
import { ForbiddenError, NotFoundError, ValidationError, valueError, type ValidationIssue } from '../errors.ts';
import type { RollupDef } from '../engine/rollups.ts';
import type { OwnedKind } from '../engine/tenant-catalog.ts';
import { fingerprint } from '../query/cursor.ts';
import type { Fragment } from '../query/sql.ts';
import { parseWith } from '../query/validation.ts';
import type { CallContext, RowsResult } from './endpoint.ts';
import { pageResult, readPage } from './read-rows.ts';
import { countUnits, type ShapedReport } from './rows-query.ts';
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
  const p = planOf(report, body, mode, ctx);
  await enforceGuards(report, p.plan, ctx);
  const rollups = new Set((report.rollups?.(p.plan) ?? []).filter((u) => ctx.core.rollups.current(u.def, u.categoryId)).map((u) => u.def.name));
  return { ...p, rollups, compiled: report.compile(p.plan, rollups) };
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
  const p = await prepareRead(report, body, 'page', ctx);
  const offset = p.paging.cursor === null ? 0 : ctx.cursors.decode(p.paging.cursor, p.fingerprint, ['body', 'cursor']);
  const next = offset + p.paging.limit;
  const { head, rows } = await readPage(ctx, p.compiled, { after: offset, upTo: next });
  const counted = countUnits(rows);
  const facts: PageFacts = {
    total: head.total,
    count: counted.units,
    rows: counted.rows,
    nextCursor: next < head.total ? ctx.cursors.encode(next, p.fingerprint) : null,
    cursor: p.paging.cursor,
    limit: p.paging.limit,
    sqlInfo: head.info,
  };
  return pageResult(p.compiled.shape, report.info(p.plan, facts), rows);
}
