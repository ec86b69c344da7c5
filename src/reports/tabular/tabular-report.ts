import type { z } from 'zod';
import { ValidationError, type ValidationIssue } from '../../errors.ts';
import { and, ident, join, render, sql, type Fragment } from '../../query/sql.ts';
import type { CallContext, Endpoint, EndpointInput, EndpointResult, StreamEvent } from '../endpoint.ts';
import { pagedSql, type CompiledReport } from '../paged-report.ts';
import { streamPayloads } from '../stream-payloads.ts';
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
  compile(plan: Plan): TabularSql;
}

export const keyColumn = (i: number, alias?: string): Fragment => (alias ? sql`${ident(alias)}.${ident(`k${i}`)}` : ident(`k${i}`));
export const metricColumn = (j: number): Fragment => ident(`m${j}`);
const labelColumn = (i: number): Fragment => ident(`d${i}`);

/** `GROUP BY k0, k1, …`, or `HAVING count(*) > 0` without dimensions so that no data gives no row. */
export function groupKeys(count: number): Fragment {
  if (count === 0) return sql`HAVING count(*) > 0`;
  return sql`GROUP BY ${join(Array.from({ length: count }, (_, i) => keyColumn(i)), ', ')}`;
}

const direction = (dir: 'asc' | 'desc') => (dir === 'asc' ? sql`ASC` : sql`DESC`);

/** The core's SQL over a report's groups: labels, metric filters, and the row order with its tie-break. */
export function tabularCompiled(plan: TabularShape, t: TabularSql): CompiledReport {
  const byDimension = (i: number, dir: 'asc' | 'desc'): Fragment[] =>
    t.dimensions[i]!.sortBy === 'key'
      ? [sql`${keyColumn(i)} ${direction(dir)} NULLS LAST`]
      : [sql`${labelColumn(i)} ${direction(dir)} NULLS LAST`, sql`${keyColumn(i)} ${direction(dir)} NULLS LAST`];
  const requested = plan.orderBy.flatMap((o) => {
    const j = plan.metrics.indexOf(o.key);
    return j >= 0 ? [sql`${metricColumn(j)} ${direction(o.dir)} NULLS LAST`] : byDimension(plan.dimensions.indexOf(o.key), o.dir);
  });
  const tieBreak = plan.dimensions.flatMap((_, i) => byDimension(i, 'asc'));
  const labels = plan.dimensions.map((_, i) => sql`${t.dimensions[i]!.label(keyColumn(i, 'g'))} AS ${labelColumn(i)}`);
  const kept = and(plan.metricFilters.map((f) => sql`${metricColumn(plan.metrics.indexOf(f.field))} >= ${f.value}`));
  const metrics = plan.metrics.map((_, j) => metricColumn(j));
  const dims = plan.dimensions.map((_, i) => sql`CAST(${labelColumn(i)} AS VARCHAR)`);
  return {
    ctes: sql`${t.ctes},
grouped AS (${t.grouped}),
labeled AS (SELECT g.*${labels.length > 0 ? sql`, ${join(labels, ', ')}` : sql``} FROM grouped g),
kept AS MATERIALIZED (SELECT * FROM labeled WHERE ${kept})`,
    rows: sql`SELECT row_number() OVER (ORDER BY ${join([...requested, ...tieBreak], ', ')}) AS unit, 0 AS seq,
       json_object('metrics', json_array(${join(metrics, ', ')}), 'dimensions', json_array(${join(dims, ', ')}))::VARCHAR AS row
FROM kept`,
    info: sql`SELECT json_object()`,
    total: sql`SELECT count(*) FROM kept`,
  };
}

export interface PreparedTabular<Plan> {
  readonly plan: Plan;
  readonly compiled: CompiledReport;
}

export async function prepareTabular<Req, Plan extends TabularShape>(report: TabularReport<Req, Plan>, body: unknown, mode: Mode, ctx: CallContext): Promise<PreparedTabular<Plan>> {
  const req = parseWith(report.schema, body);
  const plan = report.plan(req, { organizationId: ctx.organizationId, now: ctx.now }, mode);
  await report.authorize(plan, ctx);
  return { plan, compiled: tabularCompiled(plan, report.compile(plan)) };
}

/** The rows a request's pagination selects, by ordinal. */
export function pageWindow(p: Pagination): Fragment {
  return p.limit === null
    ? sql`SELECT unit, seq, row FROM rows WHERE unit > ${p.offset}`
    : sql`SELECT unit, seq, row FROM rows WHERE unit > ${p.offset} AND unit <= ${p.offset + p.limit}`;
}

export async function runTabularPage<Req, Plan extends TabularShape>(report: TabularReport<Req, Plan>, body: unknown, ctx: CallContext): Promise<string> {
  const p = await prepareTabular(report, body, 'page', ctx);
  const query = render(pagedSql(p.compiled, pageWindow(p.plan.pagination)));
  const result = await ctx.core.pool.read(query.text, query.params as never, ctx.signal);
  const payloads = result.getColumnsJS()[2] as string[];
  const head = JSON.parse(payloads[0]!) as { total: number };
  return `{"info":${JSON.stringify({ total_rows: head.total, query: p.plan.query })},"data":[${payloads.slice(1).join(',')}]}`;
}

/**
 * The v1 stream: first `{query, total_rows}` (total before pagination), then one event per row in the
 * shape of a data entry. Every event's data is JSON, since the official client parses each one and
 * ignores event names. Rows are pulled a chunk at a time; stopping early interrupts the query.
 */
export async function* runTabularStream<Plan extends TabularShape>(p: PreparedTabular<Plan>, ctx: CallContext): AsyncGenerator<StreamEvent> {
  const query = render(pagedSql(p.compiled, pageWindow(p.plan.pagination)));
  let first = true;
  for await (const payload of streamPayloads([query], ctx)) {
    if (!first) {
      yield { event: 'result', data: payload };
      continue;
    }
    first = false;
    const head = JSON.parse(payload) as { total: number };
    yield { event: 'summary', data: JSON.stringify({ query: p.plan.query, total_rows: head.total }) };
  }
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
      return { kind: 'json', status: 200, json: await runTabularPage(report, input.body, ctx) };
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
      return { kind: 'stream', events: runTabularStream(prepared, ctx) };
    },
  };
  return [page, stream];
}
