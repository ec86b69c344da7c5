import { ident, sql, type Fragment } from '../../../query/sql.ts';
import { changeTerms } from '../../extensions/compare-rule.ts';
import { declaredMetric } from '../../../query/metric-sql.ts';
import { declaredRank } from '../../../query/measure-sql.ts';
import type { VisibilityPlan } from './visibility-plan.ts';

/** Visibility's metrics, their parts and the columns compare adds, declared once (src/model/metrics.ts). */

export const declared = {
  visibility_score: declaredMetric('visibility_score', 'visibility_score'),
  share_of_voice: declaredMetric('share_of_voice (visibility)', 'share_of_voice'),
  average_position: declaredMetric('average_position', 'average_position'),
} as const;

/** The assets' rank in a group: by the sort metric, best first, then name and id. */
export const visibilityRank = declaredRank('rank (visibility)', 'rank');

/** Over a scored group and brand (its counts as columns): mentions rows are one per answer, so they count the answers mentioning it. */
const scoredParts = {
  mentioned: sql`mentions`,
  mentions: sql`mentions`,
  executions: sql`executions`,
  total_mentions: sql`total_mentions`,
  position_sum: sql`position_sum`,
};

export const metricSql = {
  visibility_score: declared.visibility_score.sql(scoredParts),
  share_of_voice: declared.share_of_voice.sql(scoredParts),
  average_position: declared.average_position.sql(scoredParts),
} as const;

/** With fill, a bucket without answers has every ratio NULL (plain groups always have answers). */
export const filledMetricSql = {
  ...metricSql,
  share_of_voice: sql`CASE WHEN executions = 0 THEN NULL ELSE ${metricSql.share_of_voice} END`,
} as const;

/** Each ratio's numerator and denominator over a built row `r` (components): their quotient is the metric. */
export const builtParts = {
  mentioned: sql`r.mentions`,
  mentions: sql`r.mentions`,
  executions: sql`r.executions`,
  total_mentions: sql`r.total_mentions`,
  position_sum: sql`coalesce(r.position_sum, 0)`,
};

/** The compare columns after the metrics: each metric's previous value, its change and its relative change. */
export const comparedOf = (plan: VisibilityPlan) =>
  (plan.compare ? plan.metrics : []).flatMap((m) => {
    const t = changeTerms(sql`r.${ident(m)}`, sql`r.${ident(`prev_${m}`)}`, 'number');
    return [
      { name: `${m}_previous`, value: t.previous },
      { name: `${m}_change`, value: t.change },
      { name: `${m}_change_pct`, value: t.changePct },
    ];
  });

/** Compare keeps the window's parts: NULL on a group of the compared window only. */
export const windowPart = (plan: VisibilityPlan, part: Fragment): Fragment =>
  plan.compare ? sql`CASE WHEN r.windowed THEN ${part} END` : part;

export const partsOf = (plan: VisibilityPlan) =>
  (plan.components ? plan.metrics : []).flatMap((m) => [
    { name: `${m}_numerator`, value: windowPart(plan, declared[m].terms(builtParts).numerator) },
    { name: `${m}_denominator`, value: windowPart(plan, declared[m].terms(builtParts).denominator) },
  ]);
