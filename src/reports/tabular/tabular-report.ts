import type { z } from 'zod';
import type { RollupDef } from '../../engine/rollups.ts';
import { ValidationError, type ValidationIssue } from '../../errors.ts';
import { join, sql, type Fragment } from '../../query/sql.ts';
import {
  plainPrepare,
  type CallContext,
  type Endpoint,
  type EndpointInput,
  type EndpointResult,
  type PrepareOptions,
  type PreparedCall,
  type RollupChoice,
  type RowsResult,
} from '../endpoint.ts';
import { pageResult, readPage } from '../read-rows.ts';
import { dictionaryColumns } from '../../query/row-shape.ts';
import { headOf, pageStatements, type ShapedReport, type UnitRange } from '../rows-query.ts';
import { streamStatements } from '../stream-payloads.ts';
import { parseWith } from '../../query/validation.ts';
import type { Pagination } from './tabular-request.ts';
import { keyColumn, type ExtensibleReport, type TabularShape } from './tabular-shape.ts';
import { extendedCompile } from './tabular-extensions.ts';

/**
 * The tabular family (v1 Insights and traffic reports): `{info: {total_rows, query}, data: [{metrics,
 * dimensions}]}`, and for some an SSE stream whose first event is `{query, total_rows}`. A report
 * computes one row per group; this module does what follows aggregation for every report: metric
 * filters, ordering with its tie-break, paging, the row shape and the stream.
 */

export type { TabularDimension, TabularShape, TabularSql } from './tabular-shape.ts';
export { keyColumn, metricColumn } from './tabular-shape.ts';
export { tabularCompiled } from './tabular-compiled.ts';

export type Mode = 'page' | 'stream';

/** `In`: the body a caller writes (the schema's input, before defaults), which the library's types take. */
export interface TabularReport<Req, Plan extends TabularShape, In = unknown> extends ExtensibleReport<Plan> {
  readonly id: string;
  readonly path: string;
  readonly streamPath: string | null;
  readonly name: string;
  readonly summary: string;
  readonly tags: readonly string[];
  readonly deprecated?: boolean;
  readonly successor?: string;
  readonly sunset?: Endpoint['sunset'];
  readonly schema: z.ZodType<Req, In>;
  /** Pure: reads the request into a plan, or throws a ValidationError naming every bad field. */
  plan(req: Req, ctx: { organizationId: string; now: Date }, mode: Mode): Plan;
  /** Refuses objects of another organization (403) or of none (404) before any fact is read. */
  authorize(plan: Plan, ctx: CallContext): Promise<void>;
  /** The rollups that could answer this plan, best first; the engine hands the first current one to compile. */
  rollups?(plan: Plan): readonly { readonly def: RollupDef; readonly scopeId: string }[];
}

/** `GROUP BY k0, k1, …`, or `HAVING count(*) > 0` without dimensions so that no data gives no row. */
export function groupKeys(count: number): Fragment {
  if (count === 0) return sql`HAVING count(*) > 0`;
  return sql`GROUP BY ${join(
    Array.from({ length: count }, (_, i) => keyColumn(i)),
    ', ',
  )}`;
}

export interface PreparedTabular<Plan> {
  readonly plan: Plan;
  readonly compiled: ShapedReport;
  readonly rollups: RollupChoice;
}

/** Validates, plans, authorizes and compiles, reading no data; with `look` a missing rollup does not start building. */
export async function prepareTabular<Req, Plan extends TabularShape>(
  report: TabularReport<Req, Plan>,
  body: unknown,
  mode: Mode,
  ctx: CallContext,
  how: PrepareOptions = plainPrepare,
): Promise<PreparedTabular<Plan>> {
  const req = parseWith(report.schema, body);
  const plan = report.plan(req, { organizationId: ctx.organizationId, now: ctx.now }, mode);
  const compiling = extendedCompile(report, plan, how.extensions);
  await report.authorize(plan, ctx);
  return compiling((p) => {
    const uses = report.rollups?.(p) ?? [];
    // A rollup found stale or missing starts building (unless only looked at), so a later one is asked only when the ones before it are not current.
    const use = uses.find((u) =>
      how.lookup === 'use' ? ctx.core.rollups.current(u.def, u.scopeId) : ctx.core.rollups.isCurrent(u.def, u.scopeId),
    );
    return { candidates: uses.map((u) => u.def.name), chosen: use ? [use.def.name] : [] };
  });
}

/** A tabular request prepared (see PreparedCall); page and stream both run the page's one statement. */
function preparedCall<Plan extends TabularShape>(
  id: string,
  p: PreparedTabular<Plan>,
  role: string,
  run: () => Promise<RowsResult>,
): PreparedCall {
  return {
    report: `${id} ${role}`,
    plan: p.plan,
    normalized: p.plan,
    statements: [{ role, queries: (dialect) => pageStatements(p.compiled, pageRange(p.plan.pagination), dialect) }],
    rollups: p.rollups,
    run,
  };
}

/** The units a request's pagination selects. */
export function pageRange(p: Pagination): UnitRange {
  return { after: p.offset, upTo: p.limit === null ? null : p.offset + p.limit };
}

export async function runTabularPage<Req, Plan extends TabularShape>(
  report: TabularReport<Req, Plan>,
  body: unknown,
  ctx: CallContext,
): Promise<RowsResult> {
  return readTabularPage(await prepareTabular(report, body, 'page', ctx), ctx);
}

async function readTabularPage<Plan extends TabularShape>(
  p: PreparedTabular<Plan>,
  ctx: CallContext,
): Promise<RowsResult> {
  const { head, rows } = await readPage(ctx, p.compiled, pageRange(p.plan.pagination));
  return pageResult(p.compiled.shape, { total_rows: head.total, query: p.plan.query }, rows);
}

/**
 * The v1 stream: first `{query, total_rows}` (total before pagination), then one event per row in the
 * shape of a data entry. Every event's data is JSON, since the official client parses each one and
 * ignores event names. Rows are pulled a chunk at a time; stopping early interrupts the query.
 */
export function runTabularStream<Plan extends TabularShape>(p: PreparedTabular<Plan>, ctx: CallContext): RowsResult {
  const range = pageRange(p.plan.pagination);
  return {
    kind: 'rows',
    framing: 'stream',
    shape: p.compiled.shape,
    read: async function* () {
      for await (const part of streamStatements(
        ctx,
        'first row',
        () => pageStatements(p.compiled, range, ctx.core.backend.dialect),
        dictionaryColumns(p.compiled.shape),
      )) {
        yield 'batch' in part ? part : { head: { query: p.plan.query, total_rows: headOf(part.head).total } };
      }
    },
  };
}

/** Semantic validation failures are thrown with every issue at once. */
export function throwIfAny(issues: { list: readonly ValidationIssue[] }): void {
  if (issues.list.length > 0) throw new ValidationError(issues.list);
}

/** The report's endpoint and, when it has one, its stream endpoint. */
export function tabularEndpoints<Req, Plan extends TabularShape>(report: TabularReport<Req, Plan>): Endpoint[] {
  const base = {
    method: 'POST' as const,
    group: 'reports' as const,
    tags: report.tags,
    schemas: { body: report.schema },
    extensions: [
      ...(report.fills ? ['fill' as const] : []),
      ...(report.within ? ['compare' as const] : []),
      ...((report.ratioMetrics ?? []).length > 0 ? ['components' as const] : []),
    ],
    ...(report.deprecated ? { deprecated: true } : {}),
    ...(report.successor ? { successor: report.successor } : {}),
    ...(report.sunset ? { sunset: report.sunset } : {}),
  };
  const page: Endpoint = {
    ...base,
    path: report.path,
    name: report.name,
    summary: report.summary,
    stream: false,
    async handle(input: EndpointInput, ctx: CallContext): Promise<EndpointResult> {
      return runTabularPage(report, input.body, ctx);
    },
    prepare: async (input, ctx, how) => {
      const p = await prepareTabular(report, input.body, 'page', ctx, how);
      return preparedCall(report.id, p, 'page', () => readTabularPage(p, ctx));
    },
  };
  if (!report.streamPath) return [page];
  const stream: Endpoint = {
    ...base,
    path: report.streamPath,
    name: `${report.name}Stream`,
    summary: `${report.summary} (Server-Sent Events: {query, total_rows}, then one event per row)`,
    stream: true,
    async handle(input: EndpointInput, ctx: CallContext): Promise<EndpointResult> {
      // Validation and tenancy errors surface here, before the stream starts, as a normal error response.
      const prepared = await prepareTabular(report, input.body, 'stream', ctx);
      return runTabularStream(prepared, ctx);
    },
    prepare: async (input, ctx, how) => {
      const p = await prepareTabular(report, input.body, 'stream', ctx, how);
      return preparedCall(report.id, p, 'stream', async () => runTabularStream(p, ctx));
    },
  };
  return [page, stream];
}
