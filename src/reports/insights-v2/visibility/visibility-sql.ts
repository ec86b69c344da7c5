import { field, object, repeated, value, type RowShape } from '../../../query/row-shape.ts';
import { distinctSorted, intDiv, semiJoin } from '../../../query/dialect.ts';
import { and, ident, join, list, sql, type Fragment } from '../../../query/sql.ts';
import { comparedGroups, comparedMetrics } from './visibility-compare.ts';
import type { ShapedReport, UnitRange } from '../../rows-query.ts';
import {
  dimensionColumns,
  dimensionJoins,
  dimensionOrder,
  dimensionShape,
  groupKey,
  keyColumn,
  keyColumnAs,
  keysEqual,
  keysLeading,
} from '../../insights/dimensions.ts';
import { visibilityRollupsFor } from '../../insights/visibility-rollup.ts';
import { visibilitySources } from './visibility-sources.ts';
import { bestFirst, metricNames, type VisibilityPlan } from './visibility-plan.ts';

import { comparedOf, filledMetricSql, metricSql, partsOf, visibilityRank } from './visibility-metrics.ts';
import { filledWindowGroups } from './visibility-fill.ts';
import { leanVisibility } from './visibility-lean.ts';
/** The brands a request keeps (scope and assets), as a predicate over an assets row `r`. */
function selection(plan: VisibilityPlan): Fragment {
  const parts: Fragment[] = [];
  if (plan.scope === 'owned') parts.push(sql`r.is_owned`);
  if (plan.assets) {
    const values = Array.isArray(plan.assets.value) ? plan.assets.value : [plan.assets.value];
    const hit = sql`(r.name IN (${list(values)}) OR r.asset_id IN (${list(values)}))`;
    parts.push(plan.assets.op === 'not_in' ? sql`NOT ${hit}` : hit);
  }
  return and(parts);
}

function shapeOf(plan: VisibilityPlan): RowShape {
  return {
    fields: [
      ...dimensionShape(plan.groupBy),
      field('asset', object([field('name', repeated('asset_name')), field('owned', value('asset_owned', 'boolean'))])),
      field('rank', value('rank', 'integer')),
      ...plan.metrics.map((m) => field(m, value(m, 'float'))),
      ...partsOf(plan).map((p) => field(p.name, value(p.name, 'integer'))),
      ...comparedOf(plan).map((p) => field(p.name, value(p.name, 'float'))),
    ],
  };
}

/**
 * Visibility: for each group (or the whole window), every brand of the category ranked by the sort
 * metric. Executions and mentions are filtered by the same predicate over their own context columns,
 * so no join between the two fact tables is needed. When the daily rollup is current and keeps every
 * key and filter field of the request, both are read from it instead of the facts.
 *
 * Every group holds every brand, and the selection keeps the same k brands in each, so a row's unit is
 * arithmetic: (the group's ordinal - 1) × k + its place in the group. Groups are numbered first (cheap:
 * one row per group); only the groups a unit range touches are then ranked and built.
 */
export function compileVisibility(plan: VisibilityPlan, rollups: ReadonlySet<string>): ShapedReport {
  const use = visibilityRollupsFor(plan);
  const fromRollups = use && rollups.has(use.rows.def.name) && rollups.has(use.models.def.name) ? use : null;
  const dims = plan.groupBy;
  const keys = dims.map((d) => keyColumn(d));
  const keysSelect =
    dims.length > 0
      ? sql`${join(
          dims.map((d) => groupKey(d, plan.interval)),
          ', ',
        )}, `
      : sql``;
  const keyList = keys.length > 0 ? sql`${join(keys, ', ')}, ` : sql``;
  const gKeys =
    dims.length > 0
      ? sql`${join(
          dims.map((d) => keyColumn(d, 'g')),
          ', ',
        )}, `
      : sql``;
  const best = bestFirst[plan.sort.field];
  const reversed = plan.sort.dir !== best;
  const kept = selection(plan);
  const selective = plan.scope === 'owned' || plan.assets !== null;

  const groups = plan.fill
    ? filledWindowGroups(plan, keyList, keys)
    : sql`groups AS (
  SELECT ${keyList}sum(n) AS executions FROM answers_by_key
  ${keys.length > 0 ? sql`GROUP BY ${join(keys, ', ')}` : sql`HAVING sum(n) > 0`}
)`;
  // A compared group may have no answers in the window, as a filled bucket has none.
  const ratios = plan.fill || plan.compare ? filledMetricSql : metricSql;
  const withCompared = plan.compare
    ? sql`${comparedMetrics(plan, visibilitySources({ ...plan, startDate: plan.compare.startDate, endDate: plan.compare.endDate }, fromRollups, keysSelect), metricSql)},
${comparedGroups(plan, keyList, plan.fill ? filledWindowGroups(plan, keyList, keys, 'g_window') : null)}`
    : groups;
  const ctes = sql`${visibilitySources(plan, fromRollups, keysSelect)},
${withCompared},
width AS (
  SELECT count(*) AS k FROM (SELECT id AS asset_id, name, is_owned FROM assets WHERE category_id = ${plan.categoryId}) r WHERE ${kept}
),
ordinals AS (
  SELECT ${gKeys}g.executions${plan.compare ? sql`, g.windowed` : sql``}, row_number() OVER (${dims.length > 0 ? sql`ORDER BY ${join(dimensionOrder(dims, 'g'), ', ')}` : sql``}) AS ordinal
  FROM groups g
  ${dimensionJoins(dims, 'g')}
)`;

  const rows = (range: UnitRange): Fragment => {
    const place = reversed ? sql`w.k + 1 - r.rank` : sql`r.rank`;
    const placeKept = !selective
      ? place
      : sql`row_number() OVER (PARTITION BY r.ordinal ORDER BY r.rank${reversed ? sql` DESC` : sql``})`;
    // TRICKY: units (after, upTo] lie in groups ⌊after/k⌋ + 1 … ⌈upTo/k⌉; only those are ranked and built. Every
    // group holds every brand of the category, so one sort ranks them all: a brand's rank is its place in
    // (ordinal, metric, name, id) order less the brands of the groups before its own.
    return sql`WITH page_groups AS (
  SELECT o.* FROM ordinals o, width w
  WHERE w.k > 0 AND o.ordinal > ${intDiv(sql`${range.after}`, sql`w.k`)}${range.upTo === null ? sql`` : sql` AND o.ordinal <= ${intDiv(sql`(${range.upTo} + w.k - 1)`, sql`w.k`)}`}
),
page_mentions AS (
  SELECT m.* FROM mentions_by_key m ${semiJoin} page_groups pg ON ${keysEqual(dims, 'm', 'pg')}
),
group_mentions AS (
  SELECT ${keyList}sum(mentions) AS total_mentions FROM page_mentions ${keys.length > 0 ? sql`GROUP BY ${join(keys, ', ')}` : sql``}
),
scored AS (
  SELECT ${keysLeading(dims, 'pg')}pg.ordinal, a.id AS asset_id, a.name, a.is_owned, pg.executions,${plan.compare ? sql` pg.windowed,` : sql``}
         coalesce(pm.mentions, 0) AS mentions, pm.position_sum, coalesce(t.total_mentions, 0) AS total_mentions${
           plan.compare
             ? sql`, ${join(
                 metricNames.map((m) => sql`cp.${ident(`prev_${m}`)}`),
                 ', ',
               )}`
             : sql``
         }
  FROM page_groups pg
  CROSS JOIN (SELECT id, name, is_owned FROM assets WHERE category_id = ${plan.categoryId}) a
  LEFT JOIN page_mentions pm ON pm.asset_id = a.id AND ${keysEqual(dims, 'pm', 'pg')}
  LEFT JOIN group_mentions t ON ${keysEqual(dims, 't', 'pg')}${
    plan.compare
      ? sql`
  LEFT JOIN cmp_prev cp ON cp.asset_id = a.id AND ${keysEqual(dims, 'cp', 'pg')}`
      : sql``
  }
),
ranked AS (
  SELECT *, row_number() OVER (ORDER BY ordinal, ${join(visibilityRank.order({ 'the sort metric': ident(plan.sort.field) }, [sql`name`, sql`asset_id`], best), ', ')}) - (ordinal - (SELECT min(ordinal) FROM page_groups)) * (SELECT count(*) FROM assets WHERE category_id = ${plan.categoryId}) AS rank
  FROM (SELECT *, ${join(
    metricNames.map((m) => sql`${ratios[m]} AS ${ident(m)}`),
    ', ',
  )} FROM scored)
),
built AS (
  SELECT (r.ordinal - 1) * w.k + ${placeKept} AS unit, r.*
  FROM ranked r CROSS JOIN width w
  WHERE ${kept}
)
SELECT r.unit, 0 AS seq, ${dims.length > 0 ? sql`${join(dimensionColumns(dims, 'r'), ', ')}, ` : sql``}r.name AS asset_name, r.is_owned AS asset_owned, r.rank,
       ${join([...plan.metrics.map((m) => sql`r.${ident(m)}`), ...[...partsOf(plan), ...comparedOf(plan)].map((p) => sql`${p.value} AS ${ident(p.name)}`)], ', ')}
FROM built r
${dimensionJoins(dims, 'r')}
WHERE r.unit > ${range.after}${range.upTo === null ? sql`` : sql` AND r.unit <= ${range.upTo}`}`;
  };

  return {
    ctes,
    shape: shapeOf(plan),
    rows,
    total: sql`SELECT count(*) * (SELECT k FROM width) FROM groups`,
    info: sql`SELECT coalesce((SELECT ${distinctSorted(sql`mo.name`)} FROM scope_models e JOIN models mo ON mo.id = e.model_id), []) AS models`,
    sliceUnits: 65_536,
    // A grouped answer from the facts reads them twice in the lean form (answers, then mentions), where one statement reads them once.
    ...(plan.fill || plan.compare || (!fromRollups && dims.length > 0)
      ? {}
      : { lean: leanVisibility(plan, fromRollups) }),
  };
}
