import type { z } from 'zod';
import type { RollupDef } from '../../engine/rollups.ts';
import { ValidationError, type ValidationIssue } from '../../errors.ts';
import { and, ident, join, render, sql, type Fragment } from '../../query/sql.ts';
import type { CallContext, Endpoint, EndpointInput, EndpointResult, RowsResult } from '../endpoint.ts';
import { pageResult, readPage } from '../read-rows.ts';
import { array, dictionaryColumns, field, repeated, value, type ScalarType } from '../../query/row-shape.ts';
import { headOf, pageStatements, type ShapedReport, type UnitRange } from '../rows-query.ts';
import { streamStatements } from '../stream-payloads.ts';
import { parseWith } from '../../query/validation.ts';
import type { MetricFilter, Ordering, Pagination } from './tabular-request.ts';

/**
 * The tabular family (v1 Insights and traffic reports): `{info: {total_rows, query}, data: [{metrics,
 * dimensions}]}`, and for some an SSE stream whose first event is `{query, total_rows}`. A report
 * computes one row per group; this module does what follows aggregation for every report: metric
 * filters, ordering with its tie-break, paging, the row shape and the stream.
 */

/** What the core reads from every tabular plan. */
export interface TabularShape {
  readonly metrics: readonly string[];
  readonly dimensions: readonly string[];
  readonly orderBy: readonly Ordering[];
  readonly metricFilters: readonly MetricFilter[];
  readonly pagination: Pagination;
  /** `info.query`: the effective request. */
  readonly query: Record<string, unknown>;
}

export interface TabularDimension {
  /** What the row shows, from the group key column. */
  readonly label: (key: Fragment) => Fragment;
  /** Dates sort by their key (the instant); names sort by what they show, then by key. */
  readonly sortBy: 'key' | 'label';
}

/**
 * A report's SQL: `grouped` has one row per group, with the key of dimension i as `k<i>` and metric j
 * as `m<j>`, in the plan's order. `dimensions[i]` says how dimension i is shown and sorted.
 */
export interface TabularSql {
  readonly ctes: Fragment;
  readonly grouped: Fragment;
  readonly dimensions: readonly TabularDimension[];
  /** How each metric is typed in Arrow and CSV (JSON writes every number alike); floats by default. */
  readonly metricTypes?: Readonly<Record<string, ScalarType>>;
}

export type Mode = 'page' | 'stream';

export interface TabularReport<Req, Plan extends TabularShape> {
  readonly id: string;
  readonly path: string;
  readonly streamPath: string | null;
  readonly name: string;
  readonly summary: string;
  readonly tags: readonly string[];
  readonly deprecated?: boolean;
  readonly successor?: string;
  readonly sunset?: Endpoint['sunset'];
  readonly schema: z.ZodType<Req>;
  /** Pure: reads the request into a plan, or throws a ValidationError naming every bad field. */
  plan(req: Req, ctx: { organizationId: string; now: Date }, mode: Mode): Plan;
  /** Refuses objects of another organization (403) or of none (404) before any fact is read. */
  authorize(plan: Plan, ctx: CallContext): Promise<void>;
  /** A rollup that could answer this plan; the engine checks it is current before compiling. */
  rollup?(plan: Plan): { readonly def: RollupDef; readonly scopeId: string } | null;
  /** Pure. `rollups` names the rollups found current for this plan: the SQL may read them instead of the facts. */
  compile(plan: Plan, rollups: ReadonlySet<string>): TabularSql;
}

export const keyColumn = (i: number, alias?: string): Fragment => (alias ? sql`${ident(alias)}.${ident(`k${i}`)}` : ident(`k${i}`));
export const metricColumn = (j: number): Fragment => ident(`m${j}`);
const labelColumn = (i: number): Fragment => ident(`d${i}`);

/** `GROUP BY k0, k1, …`, or `HAVING count(*) > 0` without dimensions so that no data gives no row. */
export function groupKeys(count: number): Fragment {
  if (count === 0) return sql`HAVING count(*) > 0`;
  return sql`GROUP BY ${join(Array.from({ length: count }, (_, i) => keyColumn(i)), ', ')}`;
}

/** Ranges of at most this many units are taken as a top-N. */
const topN = 1024;

const direction = (dir: 'asc' | 'desc') => (dir === 'asc' ? sql`ASC` : sql`DESC`);

/** The core's SQL over a report's groups: labels, metric filters, and the row order with its tie-break. */
export function tabularCompiled(plan: TabularShape, t: TabularSql): ShapedReport {
  const byDimension = (i: number, dir: 'asc' | 'desc'): Fragment[] =>
    t.dimensions[i]!.sortBy === 'key'
      ? [sql`${keyColumn(i)} ${direction(dir)} NULLS LAST`]
      : [sql`${labelColumn(i)} ${direction(dir)} NULLS LAST`, sql`${keyColumn(i)} ${direction(dir)} NULLS LAST`];
  const requested = plan.orderBy.flatMap((o) => {
    const j = plan.metrics.indexOf(o.key);
    return j >= 0 ? [sql`${metricColumn(j)} ${direction(o.dir)} NULLS LAST`] : byDimension(plan.dimensions.indexOf(o.key), o.dir);
  });
  const order = join([...requested, ...plan.dimensions.flatMap((_, i) => byDimension(i, 'asc'))], ', ');
  const labels = plan.dimensions.map((_, i) => sql`${t.dimensions[i]!.label(keyColumn(i, 'g'))} AS ${labelColumn(i)}`);
  const kept = and(plan.metricFilters.map((f) => sql`${metricColumn(plan.metrics.indexOf(f.field))} >= ${f.value}`));
  const columns = [...plan.metrics.map((_, j) => metricColumn(j)), ...plan.dimensions.map((_, i) => sql`CAST(${labelColumn(i)} AS VARCHAR) AS ${labelColumn(i)}`)];
  // TRICKY: a small range is a top-N (ORDER BY … LIMIT … OFFSET) of the kept groups, and only its groups are
  // numbered; a large one would sort twice that way (the top-N becomes a full sort), so every group is
  // numbered in one sort and the range kept.
  const rows = (range: UnitRange) =>
    range.upTo !== null && range.upTo - range.after <= topN
      ? sql`SELECT ${range.after} + row_number() OVER (ORDER BY ${order}) AS unit, 0 AS seq, ${join(columns, ', ')}
FROM (SELECT * FROM kept ORDER BY ${order} LIMIT ${range.upTo - range.after} OFFSET ${range.after})`
      : sql`SELECT row_number() OVER (ORDER BY ${order}) AS unit, 0 AS seq, ${join(columns, ', ')}
FROM kept
QUALIFY unit > ${range.after}${range.upTo === null ? sql`` : sql` AND unit <= ${range.upTo}`}`;
  return {
    ctes: sql`${t.ctes},
grouped AS (${t.grouped}),
labeled AS (SELECT g.*${labels.length > 0 ? sql`, ${join(labels, ', ')}` : sql``} FROM grouped g),
kept AS MATERIALIZED (SELECT * FROM labeled WHERE ${kept})`,
    shape: {
      fields: [
        field('metrics', array(plan.metrics.map((m, j) => field(m, value(`m${j}`, t.metricTypes?.[m] ?? 'float'))))),
        field('dimensions', array(plan.dimensions.map((d, i) => field(d, repeated(`d${i}`))))),
      ],
    },
    rows,
    total: sql`SELECT count(*) FROM kept`,
    sliceUnits: Number.POSITIVE_INFINITY,
  };
}

export interface PreparedTabular<Plan> {
  readonly plan: Plan;
  readonly compiled: ShapedReport;
}

export async function prepareTabular<Req, Plan extends TabularShape>(report: TabularReport<Req, Plan>, body: unknown, mode: Mode, ctx: CallContext): Promise<PreparedTabular<Plan>> {
  const req = parseWith(report.schema, body);
  const plan = report.plan(req, { organizationId: ctx.organizationId, now: ctx.now }, mode);
  await report.authorize(plan, ctx);
  const use = report.rollup?.(plan) ?? null;
  const rollups: ReadonlySet<string> = use !== null && ctx.core.rollups.current(use.def, use.scopeId) ? new Set([use.def.name]) : new Set();
  return { plan, compiled: tabularCompiled(plan, report.compile(plan, rollups)) };
}

/** The units a request's pagination selects. */
export function pageRange(p: Pagination): UnitRange {
  return { after: p.offset, upTo: p.limit === null ? null : p.offset + p.limit };
}

export async function runTabularPage<Req, Plan extends TabularShape>(report: TabularReport<Req, Plan>, body: unknown, ctx: CallContext): Promise<RowsResult> {
  const p = await prepareTabular(report, body, 'page', ctx);
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
      for await (const part of streamStatements(ctx, 'first row', () => pageStatements(p.compiled, range, ctx.core.backend.dialect), dictionaryColumns(p.compiled.shape))) {
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
  const base = { method: 'POST' as const, group: 'reports' as const, tags: report.tags, schemas: { body: report.schema }, ...(report.deprecated ? { deprecated: true } : {}), ...(report.successor ? { successor: report.successor } : {}), ...(report.sunset ? { sunset: report.sunset } : {}) };
  const page: Endpoint = {
    ...base,
    path: report.path,
    name: report.name,
    summary: report.summary,
    stream: false,
    async handle(input: EndpointInput, ctx: CallContext): Promise<EndpointResult> {
      return runTabularPage(report, input.body, ctx);
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
  };
  return [page, stream];
}
