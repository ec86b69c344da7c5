import { field, repeated, value, type RowShape, type ScalarType } from '../../../query/row-shape.ts';
import { ident, join, sql, type Fragment } from '../../../query/sql.ts';
import type { ShapedReport, UnitRange } from '../../rows-query.ts';
import { modelNames } from '../../insights/scope.ts';
import type { DeclaredRank } from '../../../query/measure-sql.ts';
import type { AnswerColumns } from '../../extensions/compared-answer.ts';
import type { CalendarInterval } from '../../../query/time.ts';

/** A row field: SQL over the lead `l`, the cell `x`, its period's total `t` and the model `mo`; `repeats` for text shared by many rows. */
export interface LeadField {
  readonly name: string;
  readonly expr: Fragment;
  readonly type: ScalarType;
  readonly repeats?: boolean;
}

/** The dimension a lead's rows are crossed with: its key over `sel`, and the name it is ordered by (an id's). */
export interface LeadCross {
  readonly key: Fragment;
  readonly label?: Fragment;
  readonly lookup?: Fragment;
}

/**
 * A report that ranks leads (channels, videos, categories) by their count of selected citations, each
 * lead with one row per cell (its cross key and period). `ctes` end with `platform_citations`, the scoped citations (the
 * denominators, with `period` when by date, and `model_id`), and `sel`, the citations that count.
 */
export interface RankedLeads {
  readonly ctes: Fragment;
  /** The citations of a group of `sel` or `platform_citations`, as a BIGINT aggregate: rows counted, or a rollup's `n` summed. */
  readonly count: Fragment;
  /** The lead's key over `sel`, its other columns as aggregates, and the name it is ordered by after its count. */
  readonly key: Fragment;
  readonly aggregates: Fragment;
  readonly label: Fragment;
  /** The rank's declaration: by count, then `label`, then the key. */
  readonly rank: DeclaredRank;
  readonly cross: LeadCross | null;
  readonly byPeriod: boolean;
  /** Whether a cell also counts its distinct videos (`videos`). */
  readonly countsVideos?: boolean;
  readonly fields: readonly LeadField[];
  /** The rows carry `lead_key` (and `cross_key`), for fill and compare. */
  readonly keyed?: boolean;
}

/**
 * The answer columns of a ranked-leads report: a row is its lead's cell, known by the lead's key, the
 * cross key and the period (hidden columns beside the shown ones), its place the lead's rank; `about`
 * are the lead's and the cross key's shown fields.
 */
export function leadAnswer(
  crossed: boolean,
  interval: CalendarInterval | null,
  metrics: readonly string[],
  about: readonly string[],
): AnswerColumns {
  return {
    keys: ['lead_key', ...(crossed ? ['cross_key'] : []), ...(interval ? ['date'] : [])],
    metrics,
    places: ['rank'],
    counts: metrics.filter((m) => m !== 'citation_share'),
    about,
    date: interval ? { column: 'date', interval } : null,
  };
}

/**
 * The shaped query of a ranked-leads report. Leads are the page units, ranked by a top-N: a range
 * numbers only its own leads, and counts the cells (GROUP BY cross key and period) of those leads only.
 */
export function rankedLeads(r: RankedLeads): ShapedReport {
  const order = join(r.rank.order({ count: sql`n` }, [r.label, sql`lead_key`]), ', ');
  const cellKeys = [...(r.cross ? [sql`${r.cross.key} AS cross_key`] : []), ...(r.byPeriod ? [sql`period`] : [])];
  const cellKeyList = cellKeys.length > 0 ? sql`${join(cellKeys, ', ')}, ` : sql``;
  // TRICKY: distinct videos per cell as a count over (cell, video) groups: a grouped count(DISTINCT) keeps a set per group.
  const cellColumns = sql`${r.cross ? sql`cross_key, ` : sql``}${r.byPeriod ? sql`period, ` : sql``}`;
  const cellOrder = [
    ...(r.byPeriod ? [sql`x.period`] : []),
    sql`x.n DESC`,
    ...(r.cross?.label ? [r.cross.label] : []),
    ...(r.cross ? [sql`x.cross_key`] : []),
  ];
  const rows = (range: UnitRange) => sql`WITH page_leads AS (
  SELECT ${range.after} + row_number() OVER (ORDER BY ${order}) AS unit, *
  FROM (SELECT * FROM leads ORDER BY ${order}${range.upTo === null ? sql`` : sql` LIMIT ${range.upTo - range.after}`} OFFSET ${range.after})
),
cells AS (${
    r.countsVideos
      ? sql`
  SELECT lead_key, ${cellColumns}sum(n) AS n, count(video_id) AS videos FROM (
    SELECT ${r.key} AS lead_key, ${cellKeyList}video_id, ${r.count} AS n FROM sel WHERE ${r.key} IN (SELECT lead_key FROM page_leads) GROUP BY ALL
  ) GROUP BY ALL`
      : sql`
  SELECT ${r.key} AS lead_key, ${cellKeyList}${r.count} AS n FROM sel WHERE ${r.key} IN (SELECT lead_key FROM page_leads) GROUP BY ALL`
  }
),
totals AS (SELECT ${r.byPeriod ? sql`period, ` : sql``}CAST(coalesce(sum(total), 0) AS BIGINT) AS total FROM model_totals${r.byPeriod ? sql` GROUP BY period` : sql``})
SELECT l.unit, row_number() OVER (PARTITION BY l.unit ORDER BY ${join(cellOrder, ', ')}) AS seq, ${join(
    r.fields.map((f) => sql`${f.expr} AS ${ident(f.name)}`),
    ', ',
  )}${r.keyed ? sql`, x.lead_key AS lead_key${r.cross ? sql`, x.cross_key AS cross_key` : sql``}` : sql``}
FROM cells x
JOIN page_leads l ON l.lead_key = x.lead_key
JOIN totals t ON ${r.byPeriod ? sql`t.period = x.period` : sql`TRUE`}${r.cross?.lookup ? sql`\n${r.cross.lookup}` : sql``}`;
  const shape: RowShape = {
    fields: r.fields.map((f) => field(f.name, f.repeats ? repeated(f.name) : value(f.name, f.type))),
  };
  const multiRow = cellKeys.length > 0;
  return {
    // TRICKY: the denominators and the models in scope come from one pass over the scoped citations, by
    // model (and period): a pass each read the window's rows twice, the models' pass a third of a 365-day page.
    ctes: sql`${r.ctes},
leads AS (SELECT ${r.key} AS lead_key, ${r.aggregates}${r.count} AS n FROM sel GROUP BY lead_key),
model_totals AS (SELECT model_id, ${r.byPeriod ? sql`period, ` : sql``}${r.count} AS total FROM platform_citations GROUP BY ALL)`,
    shape,
    rows,
    total: sql`SELECT count(*) FROM leads`,
    info: sql`SELECT ${modelNames('model_totals')} AS models`,
    // Leads rank by whole-window counts, so each slice would scan and rank the window again (most of the
    // statement's work): the stream is one statement of (leads × their cells) rows.
    sliceUnits: Number.POSITIVE_INFINITY,
    ...(multiRow
      ? {
          unitRows: sql`SELECT row_number() OVER (ORDER BY ${order}) AS unit, cells AS n
FROM leads JOIN (SELECT lead_key, count(*) AS cells FROM (SELECT DISTINCT ${r.key} AS lead_key, ${join(cellKeys, ', ')} FROM sel) GROUP BY lead_key) lc USING (lead_key)`,
        }
      : {}),
  };
}
