import type { FilterCatalog } from '../../../query/filter-compiler.ts';
import { refField } from '../../../query/filter-fields.ts';
import { field, object, value } from '../../../query/row-shape.ts';
import { sql } from '../../../query/sql.ts';
import type { CalendarInterval } from '../../../query/time.ts';
import { promptFilterFields } from '../../insights/dimensions.ts';
import { dateKey, Grouping, promptKeys, refKey, textKey, type GroupKey } from '../../insights/group-keys.ts';
import type { FilterRules, LayeredFilter } from '../../insights/layered-filter.ts';
import type { WindowScope } from '../../insights/scope.ts';

export const sentimentMetrics = ['positive_sentiment', 'negative_sentiment', 'occurrence'] as const;
export type SentimentMetric = (typeof sentimentMetrics)[number];

/** Grouping by these reads the assessments themselves, not the answers: occurrence counts answers without them. */
export const assessmentDims: readonly string[] = ['theme', 'claim'];

/** cited_websites lists the pages most cited by the answers behind a row. */
export const maxCitedWebsites = 10;

export interface SentimentPlan extends WindowScope {
  readonly asset: string;
  readonly source: 'asset' | 'citation';
  readonly groupBy: readonly string[];
  readonly interval: CalendarInterval;
  readonly metrics: readonly SentimentMetric[];
  readonly comparison: { readonly startDate: string; readonly endDate: string } | null;
  readonly citedWebsites: boolean;
  readonly filter: LayeredFilter;
}

const themesTable = { table: 'themes', name: 'name', scope: 'category' } as const;
const claimsTable = { table: 'sentiment_claims', name: 'name', scope: 'category' } as const;
const assetsTable = { table: 'assets', name: 'name', scope: 'category' } as const;

export const sentimentCatalog: FilterCatalog = {
  ...promptFilterFields,
  theme: refField(sql`f.theme_id`, themesTable, ['is', 'in']),
  claim: refField(sql`f.claim_id`, claimsTable, ['is', 'in']),
};

export const sentimentRules: FilterRules = { catalog: sentimentCatalog, rowFields: assessmentDims };

/** A run is shown as `{id, created_at}`: it has no name. */
const runKey = (categoryId: string): GroupKey => ({
  expr: sql`f.execution_id`,
  lookup: (k, d) => sql`LEFT JOIN executions AS ${d} ON ${d}.category_id = ${categoryId} AND ${d}.id = ${k}`,
  order: (k) => [k],
  shape: (col) => [
    field(
      'run',
      object([field('id', value(col('id'), 'text')), field('created_at', value(col('created_at'), 'instant'))]),
    ),
  ],
  columns: (k, d, col) => [sql`${k} AS ${col('id')}`, sql`${d}.executed_at AS ${col('created_at')}`],
  identity: 'id',
});

export const sentimentKeys = (interval: CalendarInterval, categoryId: string): Record<string, GroupKey> => ({
  ...promptKeys,
  date: dateKey(interval),
  theme: refKey('theme', sql`f.theme_id`, themesTable),
  claim: refKey('claim', sql`f.claim_id`, claimsTable),
  run: runKey(categoryId),
  competitor: refKey('competitor', sql`f.asset_id`, assetsTable),
  page: textKey('page', sql`ct.url`),
});

/** The groups of a sentiment answer: its cited pages, or the request's group_by. */
export const sentimentGrouping = (plan: SentimentPlan) =>
  new Grouping(sentimentKeys(plan.interval, plan.categoryId), plan.source === 'citation' ? ['page'] : plan.groupBy);
