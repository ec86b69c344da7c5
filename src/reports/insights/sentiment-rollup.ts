import { rollupTable, type RollupDef } from '../../engine/rollups.ts';
import { leaves } from '../../query/filter-node.ts';
import { ident, sql, type Fragment } from '../../query/sql.ts';
import type { LayeredFilter } from './layered-filter.ts';

/**
 * Sentiment's daily rollup: per category, ET day, model and brand, the assessments (`n`) and the
 * positive (`positive`) and negative (`negative`) ones, over the prompts carrying the sentiment type.
 * Counts are summed; the distinct answers behind them (occurrence) and the themes, claims, regions and
 * prompts are not kept: with the region it would keep half the assessments at scale 1, with the theme
 * two thirds. Its keys keep the facts' names, so windows, date buckets, model and brand keys and model
 * filters compile over it unchanged. The prompts' types are folded in: a prompt edit makes it stale.
 */
export const sentimentDaily: RollupDef = {
  name: 'sentiment_daily',
  scope: { kind: 'category', prompts: `list_contains(analysis_types, 'sentiment')` },
  tables: {
    sentiments: `SELECT f.category_id, f.day, f.model_id, f.asset_id, count(*) AS n,
       count(*) FILTER (WHERE f.sentiment_type = 'positive') AS positive, count(*) FILTER (WHERE f.sentiment_type = 'negative') AS negative
FROM sentiments f JOIN p ON p.id = f.prompt_id
WHERE f.category_id = $scope
GROUP BY ALL ORDER BY day, model_id, asset_id`,
  },
};

export const sentimentDailyTable: Fragment = sql`${ident(rollupTable(sentimentDaily, 'sentiments'))} f`;

/**
 * The rollup answers a v2 request when it ranks the brand's (or competitors') assessments by date,
 * model or competitor, filters by model only, and needs no answer counts (occurrence) or cited pages.
 */
export function servedBySentimentDaily(plan: {
  readonly source: string;
  readonly groupBy: readonly string[];
  readonly metrics: readonly string[];
  readonly citedWebsites: boolean;
  readonly filter: LayeredFilter;
}): boolean {
  const answerFields = plan.filter.answer ? leaves(plan.filter.answer).map((l) => l.field) : [];
  return (
    plan.source === 'asset' &&
    plan.groupBy.every((d) => d === 'date' || d === 'model' || d === 'competitor') &&
    !plan.metrics.includes('occurrence') &&
    !plan.citedWebsites &&
    plan.filter.row === null &&
    answerFields.every((f) => f === 'model')
  );
}
