import type { BucketSpec, InstantWindow } from '../../query/instants.ts';
import type { ScalarType } from '../../query/row-shape.ts';
import { ident, sql, type Fragment } from '../../query/sql.ts';
import type { MetricFilter, Ordering, Pagination } from './tabular-request.ts';
import type { MsWindow } from '../extensions/compare-window.ts';

/** What the core reads from every tabular plan. */
export interface TabularShape {
  /** The instants rows come from and how `date` buckets them, for the fill extension. */
  readonly window?: InstantWindow;
  readonly bucket?: BucketSpec;
  readonly metrics: readonly string[];
  readonly dimensions: readonly string[];
  readonly orderBy: readonly Ordering[];
  readonly metricFilters: readonly MetricFilter[];
  readonly pagination: Pagination;
  /** `info.query`: the effective request. */
  readonly query: Record<string, unknown>;
  /** The components extension: each ratio's numerator and denominator follow the metrics (see `componentColumns`). */
  readonly components?: boolean;
}

/** A ratio metric's numerator and denominator, over the same relations as its SQL: their quotient is the metric. */
export interface RatioParts {
  readonly numerator: Fragment;
  readonly denominator: Fragment;
}

/** The ratios among a plan's metrics that have parts, in the plan's order. */
export const ratiosOf = (metrics: readonly string[], ratios: readonly string[]): string[] =>
  metrics.filter((m) => ratios.includes(m));

/** The names of the component columns, after the metrics: `<ratio>_numerator`, `<ratio>_denominator`. */
export const componentNames = (metrics: readonly string[], ratios: readonly string[]): string[] =>
  ratiosOf(metrics, ratios).flatMap((m) => [`${m}_numerator`, `${m}_denominator`]);

/** The component columns of `grouped` when the plan asks for them: `m<n + 2k>` and `m<n + 2k + 1>` for the k-th ratio. */
export function componentColumns(plan: TabularShape, parts: Readonly<Record<string, RatioParts>>): Fragment[] {
  if (!plan.components) return [];
  const n = plan.metrics.length;
  return ratiosOf(plan.metrics, Object.keys(parts)).flatMap((m, k) => [
    sql`${parts[m]!.numerator} AS ${metricColumn(n + 2 * k)}`,
    sql`${parts[m]!.denominator} AS ${metricColumn(n + 2 * k + 1)}`,
  ]);
}

export interface TabularDimension {
  /**
   * What the row shows, from the group key column; with `names`, from the name the key's row of that
   * table holds (`name`, the column joined), '' for a missing one when `orEmpty`.
   */
  readonly label: (key: Fragment, name?: Fragment) => Fragment;
  readonly names?: { readonly table: string; readonly column: string };
  /** Dates sort by their key (the instant); names sort by what they show, then by key. */
  readonly sortBy: 'key' | 'label';
  /** How the label is typed in Arrow and Parquet (JSON and CSV show the same text): text by default. */
  readonly type?: ScalarType;
}

/**
 * A report's SQL: `grouped` has one row per group, with the key of dimension i as `k<i>` and metric j
 * as `m<j>`, in the plan's order. `dimensions[i]` says how dimension i is shown and sorted.
 */
export interface TabularSql {
  readonly ctes: Fragment;
  readonly grouped: Fragment;
  readonly dimensions: readonly TabularDimension[];
  /** How each metric is typed in Arrow and Parquet (JSON writes every number alike); floats by default. */
  readonly metricTypes?: Readonly<Record<string, ScalarType>>;
  /**
   * The dimensions the date bucket decides (the hour of day under hour buckets), by index: each one's
   * key from the bucket's key. fill and compare derive them from the bucket instead of crossing them with it.
   */
  readonly ofBucket?: Readonly<Record<number, (bucket: Fragment) => Fragment>>;
}

export const keyName = (i: number): string => `k${i}`;
export const metricName = (j: number): string => `m${j}`;
export const keyColumn = (i: number, alias?: string): Fragment =>
  alias ? sql`${ident(alias)}.${ident(keyName(i))}` : ident(keyName(i));
export const metricColumn = (j: number): Fragment => ident(metricName(j));

/** What a tabular report declares for the extensions (src/reports/tabular/tabular-extensions.ts), as data. */
export interface ExtensibleReport<Plan extends TabularShape> {
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
  /** Pure. `rollups` names the rollups found current for this plan: the SQL may read them instead of the facts. */
  compile(plan: Plan, rollups: ReadonlySet<string>): TabularSql;
}
