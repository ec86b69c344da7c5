import type { z } from 'zod';
import type { RollupDef } from '../../engine/rollups.ts';
import { ValidationError, type ValidationIssue } from '../../errors.ts';
import { and, ident, join, render, sql, type Fragment } from '../../query/sql.ts';
import { plainPrepare, type CallContext, type Endpoint, type EndpointInput, type EndpointResult, type PrepareOptions, type PreparedCall, type RollupChoice, type RowsResult } from '../endpoint.ts';
import { pageResult, readPage } from '../read-rows.ts';
import { array, dictionaryColumns, field, repeated, value, type ScalarType } from '../../query/row-shape.ts';
import { headOf, pageQuery, pageStatements, type ShapedReport, type UnitRange } from '../rows-query.ts';
import { streamStatements } from '../stream-payloads.ts';
import { parseWith } from '../../query/validation.ts';
import type { Pagination } from './tabular-request.ts';
import { componentNames, keyColumn, metricColumn, type TabularDimension, type TabularShape, type TabularSql } from './tabular-shape.ts';
import type { MsWindow } from '../extensions/compare-window.ts';
import { checkFill, compareWindowOf, comparedGroups, comparedShape, filledGroups } from './tabular-extensions.ts';

/**
 * The tabular family (v1 Insights and traffic reports): `{info: {total_rows, query}, data: [{metrics,
 * dimensions}]}`, and for some an SSE stream whose first event is `{query, total_rows}`. A report
 * computes one row per group; this module does what follows aggregation for every report: metric
 * filters, ordering with its tie-break, paging, the row shape and the stream.
 */

export type { TabularDimension, TabularShape, TabularSql } from './tabular-shape.ts';
export { keyColumn, metricColumn } from './tabular-shape.ts';

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
  /** Metrics that count rows: 0 in a time bucket without rows (fill); every other metric is null there. */
  readonly countMetrics: readonly string[];
  /** Whether the report has the date dimension, so it takes the fill extension. */
  readonly fills: boolean;
  /** Ratio metrics whose numerator and denominator the report adds on request (components); none by default. */
  readonly ratioMetrics?: readonly string[];
  /**
   * Dimensions whose rows do not re-aggregate by their parts: a row exists only where the dimension has
   * facts, while its denominator counts the whole group. components refuses them.
   */
  readonly partialDimensions?: readonly string[];
  /** Metrics that are instants (Unix seconds): compare gives their change in seconds, never relative. */
  readonly instantMetrics?: readonly string[];
  /** Pure: the same plan over another window (compare reads the compared window with it). */
  within?(plan: Plan, window: MsWindow): Plan;
  /** Pure: reads the request into a plan, or throws a ValidationError naming every bad field. */
  plan(req: Req, ctx: { organizationId: string; now: Date }, mode: Mode): Plan;
  /** Refuses objects of another organization (403) or of none (404) before any fact is read. */
  authorize(plan: Plan, ctx: CallContext): Promise<void>;
  /** The rollups that could answer this plan, best first; the engine hands the first current one to compile. */
  rollups?(plan: Plan): readonly { readonly def: RollupDef; readonly scopeId: string }[];
  /** Pure. `rollups` names the rollups found current for this plan: the SQL may read them instead of the facts. */
  compile(plan: Plan, rollups: ReadonlySet<string>): TabularSql;
}

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
export function tabularCompiled(plan: TabularShape, t: TabularSql, groups: Fragment = sql`${t.ctes},
grouped AS (${t.grouped})`): ShapedReport {
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
    ctes: sql`${groups},
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
  readonly rollups: RollupChoice;
}

/** Validates, plans, authorizes and compiles, reading no data; with `look` a missing rollup does not start building. */
export async function prepareTabular<Req, Plan extends TabularShape>(report: TabularReport<Req, Plan>, body: unknown, mode: Mode, ctx: CallContext, how: PrepareOptions = plainPrepare): Promise<PreparedTabular<Plan>> {
  const lookup = how.lookup;
  const req = parseWith(report.schema, body);
  const plan = report.plan(req, { organizationId: ctx.organizationId, now: ctx.now }, mode);
  const rollupsOf = (p: Plan) => {
    const uses = report.rollups?.(p) ?? [];
    // A rollup found stale or missing starts building (unless only looked at), so a later one is asked only when the ones before it are not current.
    const use = uses.find((u) => (lookup === 'use' ? ctx.core.rollups.current(u.def, u.scopeId) : ctx.core.rollups.isCurrent(u.def, u.scopeId)));
    return { candidates: uses.map((u) => u.def.name), chosen: use ? [use.def.name] : [] };
  };
  const { fill, compare, components } = how.extensions;
  if (fill && compare) throw ValidationError.of(['query', 'compare'], 'compare and fill cannot be combined yet', 'compare');
  if (components && (fill || compare)) throw ValidationError.of(['query', 'components'], 'components cannot be combined with fill or compare yet', true);
  if (components) {
    const partial = plan.dimensions.filter((d) => report.partialDimensions?.includes(d));
    if (partial.length > 0) {
      throw ValidationError.of(['query', 'components'], `components does not apply with the ${partial.join(', ')} dimension: a row exists only where it has facts while its denominator counts the whole group, so sums over rows would not re-aggregate exactly`, true);
    }
    const asked = { ...plan, components: true };
    await report.authorize(plan, ctx);
    const rollups = rollupsOf(asked);
    const names = componentNames(plan.metrics, report.ratioMetrics ?? []);
    const shaped = { ...asked, metrics: [...plan.metrics, ...names], query: { ...plan.query, metrics: [...plan.metrics, ...names] } };
    return { plan: shaped, compiled: tabularCompiled(shaped, report.compile(asked, new Set(rollups.chosen))), rollups };
  }
  if (fill) checkFill(plan);
  const compared = compare && report.within ? compareWindowOf(plan, compare) : null;
  await report.authorize(plan, ctx);
  const rollups = rollupsOf(plan);
  const t = report.compile(plan, new Set(rollups.chosen));
  if (fill) return { plan, compiled: tabularCompiled(plan, t, filledGroups(plan, t, report.countMetrics)), rollups };
  if (compared && report.within) {
    const prevPlan = report.within(plan, compared);
    const prevRollups = rollupsOf(prevPlan);
    const prev = report.compile(prevPlan, new Set(prevRollups.chosen));
    const shaped = comparedShape(plan, compared);
    const both = { candidates: [...new Set([...rollups.candidates, ...prevRollups.candidates])], chosen: [...new Set([...rollups.chosen, ...prevRollups.chosen])] };
    return { plan: shaped, compiled: tabularCompiled(shaped, t, comparedGroups(plan, t, prevPlan, prev, report.instantMetrics ?? [])), rollups: both };
  }
  return { plan, compiled: tabularCompiled(plan, t), rollups };
}

/** A tabular request prepared (see PreparedCall); page and stream both run the page's one statement. */
function preparedCall<Plan extends TabularShape>(id: string, p: PreparedTabular<Plan>, role: string, run: () => Promise<RowsResult>): PreparedCall {
  return { report: `${id} ${role}`, plan: p.plan, normalized: p.plan, statements: [{ role, sql: render(pageQuery(p.compiled, pageRange(p.plan.pagination))) }], rollups: p.rollups, run };
}

/** The units a request's pagination selects. */
export function pageRange(p: Pagination): UnitRange {
  return { after: p.offset, upTo: p.limit === null ? null : p.offset + p.limit };
}

export async function runTabularPage<Req, Plan extends TabularShape>(report: TabularReport<Req, Plan>, body: unknown, ctx: CallContext): Promise<RowsResult> {
  return readTabularPage(await prepareTabular(report, body, 'page', ctx), ctx);
}

async function readTabularPage<Plan extends TabularShape>(p: PreparedTabular<Plan>, ctx: CallContext): Promise<RowsResult> {
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
  const base = { method: 'POST' as const, group: 'reports' as const, tags: report.tags, schemas: { body: report.schema }, extensions: [...(report.fills ? ['fill' as const] : []), ...(report.within ? ['compare' as const] : []), ...((report.ratioMetrics ?? []).length > 0 ? ['components' as const] : [])], ...(report.deprecated ? { deprecated: true } : {}), ...(report.successor ? { successor: report.successor } : {}), ...(report.sunset ? { sunset: report.sunset } : {}) };
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
