import { field, object, repeated, value, type ShapeField } from '../../query/row-shape.ts';
import type { FilterCatalog } from '../../query/filter-compiler.ts';
import { refField, setRefField, textOps, type DimensionTable } from '../../query/filter-fields.ts';
import { nullSafeEqual } from '../../query/dialect.ts';
import { ident, join, key, sql, type Fragment } from '../../query/sql.ts';
import { dayBucket, type CalendarInterval } from '../../query/time.ts';

/**
 * Prompt-level dimensions shared by the Answer Engine Insights reports. A fact table is aliased `f`
 * (it repeats its execution's context) and the current prompt row `p`.
 */
export const promptDimensions = {
  model: { column: sql`f.model_id`, table: { table: 'models', name: 'name', scope: 'global' } },
  region: { column: sql`f.region_id`, table: { table: 'regions', name: 'name', scope: 'global' } },
  persona: { column: sql`f.persona_id`, table: { table: 'personas', name: 'name', scope: 'category' } },
  prompt: { column: sql`f.prompt_id`, table: { table: 'prompts', name: 'prompt', scope: 'category' } },
  topic: { column: sql`p.topic_id`, table: { table: 'topics', name: 'name', scope: 'category' } },
} as const satisfies Record<string, { column: Fragment; table: DimensionTable }>;

export type PromptDimension = keyof typeof promptDimensions;

export const tagTable: DimensionTable = { table: 'tags', name: 'name', scope: 'category' };

/**
 * Filter fields every Insights report accepts: is/in take names or UUIDs, as the v2 conventions require,
 * and the text operators match the dimension's name.
 */
export const promptFilterFields: FilterCatalog = {
  model: refField(promptDimensions.model.column, promptDimensions.model.table, textOps),
  region: refField(promptDimensions.region.column, promptDimensions.region.table, textOps),
  persona: refField(promptDimensions.persona.column, promptDimensions.persona.table, textOps),
  topic: refField(promptDimensions.topic.column, promptDimensions.topic.table, textOps),
  prompt: refField(promptDimensions.prompt.column, promptDimensions.prompt.table, textOps),
  tag: setRefField(sql`p.tag_ids`, tagTable, textOps),
};

export type GroupDimension = PromptDimension | 'date';

/** The key column a group-by dimension contributes to a grouped CTE: `k_<dim>`. */
export function groupKey(dim: GroupDimension, interval: CalendarInterval): Fragment {
  const expr = dim === 'date' ? dayBucket(interval, sql`f.day`) : promptDimensions[dim].column;
  return sql`${expr} AS ${ident(`k_${dim}`)}`;
}

/** The name of a group key's column. */
export const keyName = (dim: GroupDimension): string => `k_${dim}`;

export const keyColumn = (dim: GroupDimension, alias?: string): Fragment =>
  alias ? sql`${ident(alias)}.${ident(keyName(dim))}` : ident(keyName(dim));

/** A relation's key column under its own name: ClickHouse names an unaliased `alias.column` by its alias when the column is ambiguous. */
export const keyColumnAs = (dim: GroupDimension, alias: string): Fragment =>
  sql`${keyColumn(dim, alias)} AS ${keyColumn(dim)}`;

/** A relation's key columns under their own names, each followed by a comma: the start of a select list. */
export const keysLeading = (dims: readonly GroupDimension[], alias: string): Fragment =>
  dims.length > 0
    ? sql`${join(
        dims.map((d) => keyColumnAs(d, alias)),
        ', ',
      )}, `
    : sql``;

/** NULL-safe equality of the group keys of two grouped relations. */
export function keysEqual(dims: readonly GroupDimension[], left: string, right: string): Fragment {
  if (dims.length === 0) return sql`TRUE`;
  return join(
    dims.map((d) => nullSafeEqual(keyColumn(d, left), keyColumn(d, right))),
    ' AND ',
  );
}

/** LEFT JOINs that bring each grouped dimension's display name, as alias `d_<dim>`. */
export function dimensionJoins(dims: readonly GroupDimension[], from: string): Fragment {
  return join(
    dims
      .filter((d): d is PromptDimension => d !== 'date')
      .map((d) => {
        const t = promptDimensions[d].table;
        return sql`LEFT JOIN ${ident(t.table)} AS ${ident(`d_${d}`)} ON ${ident(`d_${d}`)}.id = ${keyColumn(d, from)}`;
      }),
    '\n',
  );
}

/** The JSON fields a row carries for its groups: `date` as YYYY-MM-DD, other dimensions as `{id, name}`. */
export function dimensionFields(dims: readonly GroupDimension[], from: string): Fragment[] {
  return dims.map((d) => {
    if (d === 'date') return sql`'date', strftime(${keyColumn(d, from)}, '%Y-%m-%d')`;
    const name = ident(promptDimensions[d].table.name);
    return sql`${key(d)}, CASE WHEN ${keyColumn(d, from)} IS NULL THEN NULL ELSE json_object('id', ${keyColumn(d, from)}, 'name', ${ident(`d_${d}`)}.${name}) END`;
  });
}

/** The same fields as `dimensionFields`, as `key: value` entries of a struct literal (for `to_json`, which builds JSON faster than `json_object`). */
export function dimensionStructFields(dims: readonly GroupDimension[], from: string): Fragment[] {
  return dims.map((d) => {
    if (d === 'date') return sql`'date': strftime(${keyColumn(d, from)}, '%Y-%m-%d')`;
    const name = ident(promptDimensions[d].table.name);
    return sql`${key(d)}: CASE WHEN ${keyColumn(d, from)} IS NULL THEN NULL ELSE {'id': ${keyColumn(d, from)}, 'name': ${ident(`d_${d}`)}.${name}} END`;
  });
}

/** Ordering of grouped rows: dates ascending, then each dimension by display name, then id; missing values last. */
export function dimensionOrder(dims: readonly GroupDimension[], from: string): Fragment[] {
  return dims.flatMap((d) =>
    d === 'date'
      ? [sql`${keyColumn(d, from)}`]
      : [
          sql`${ident(`d_${d}`)}.${ident(promptDimensions[d].table.name)} NULLS LAST`,
          sql`${keyColumn(d, from)} NULLS LAST`,
        ],
  );
}

/** The row fields of the grouped dimensions: `date` as a day, the others as `{id, name}` (null when missing). */
export function dimensionShape(dims: readonly GroupDimension[]): ShapeField[] {
  return dims.map((d) =>
    d === 'date'
      ? field('date', value('k_date', 'date'))
      : field(d, object([field('id', repeated(`k_${d}`)), field('name', repeated(`n_${d}`))], `k_${d}`)),
  );
}

/** The columns `dimensionShape` reads: each key as `k_<dim>` and each name as `n_<dim>`, from relation `from` and its lookups. */
export function dimensionColumns(dims: readonly GroupDimension[], from: string): Fragment[] {
  return dims.flatMap((d) =>
    d === 'date'
      ? [sql`${keyColumn(d, from)} AS k_date`]
      : [
          sql`${keyColumn(d, from)} AS ${ident(`k_${d}`)}`,
          sql`${ident(`d_${d}`)}.${ident(promptDimensions[d].table.name)} AS ${ident(`n_${d}`)}`,
        ],
  );
}
