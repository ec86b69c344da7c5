import { eachItemOrNull } from '../../query/dialect.ts';
import { bucketKey, bucketLabel, bucketType, type BucketSpec } from '../../query/instants.ts';
import { ident, join, sql, type Fragment } from '../../query/sql.ts';
import type { TabularDimension } from '../tabular/tabular-report.ts';

/** A dimension of a fact row: its group key over `f` and `p`, and how it is shown and sorted. */
export interface KeyedDimension extends TabularDimension {
  readonly key: Fragment;
}

const asText = (k: Fragment) => k;

export const plainDimension = (key: Fragment): KeyedDimension => ({ key, label: asText, sortBy: 'label' });

/** A dimension stored as an id and shown by the name its table holds for it (joined, not a subquery per row). */
export const namedDimension = (key: Fragment, table: string, column = 'name'): KeyedDimension => ({
  key,
  label: (_k, name) => name!,
  names: { table, column },
  sortBy: 'label',
});

/** A dimension an answer may lack (persona, tag): the client types dimensions as strings, so a missing one shows as ''. */
const optionalDimension = (key: Fragment, table: string): KeyedDimension => ({
  key,
  label: (_k, name) => sql`coalesce(${name!}, '')`,
  names: { table, column: 'name' },
  sortBy: 'label',
});

/** Dimensions of the answer an Insights fact belongs to. Groups are by id; rows show names. */
export function answerDimensions(bucket: BucketSpec): Record<string, KeyedDimension> {
  return {
    date: {
      key: bucketKey(bucket, sql`f.executed_at`, sql`f.day`),
      label: (k) => bucketLabel(bucket, k),
      sortBy: 'key',
      type: bucketType(bucket),
    },
    region: namedDimension(sql`f.region_id`, 'regions'),
    model: namedDimension(sql`f.model_id`, 'models'),
    persona: optionalDimension(sql`f.persona_id`, 'personas'),
    topic: namedDimension(sql`p.topic_id`, 'topics'),
    topic_id: plainDimension(sql`p.topic_id`),
    prompt: namedDimension(sql`f.prompt_id`, 'prompts', 'prompt'),
    prompt_id: plainDimension(sql`f.prompt_id`),
    // A prompt with several tags counts in each tag's group; one without tags in the missing tag's.
    tag: optionalDimension(eachItemOrNull(sql`p.tag_ids`, true), 'tags'),
  };
}

/** The internal key column of a dimension in a report's CTEs. */
export const dimKey = (dim: string, alias?: string): Fragment =>
  alias ? sql`${ident(alias)}.${ident(`k_${dim}`)}` : ident(`k_${dim}`);

/** `expr AS k_<dim>, …` for the select list of a fact CTE, with a trailing comma when not empty. */
export function keySelect(dims: readonly string[], defs: Record<string, KeyedDimension>): Fragment {
  if (dims.length === 0) return sql``;
  return sql`${join(
    dims.map((d) => sql`${defs[d]!.key} AS ${dimKey(d)}`),
    ', ',
  )}, `;
}

/** `k_a, k_b` (no trailing comma), or nothing. */
export const keyList = (dims: readonly string[], alias?: string): Fragment =>
  join(
    dims.map((d) => dimKey(d, alias)),
    ', ',
  );

/** NULL-safe equality of the keys of two relations. */
export function keysMatch(dims: readonly string[], left: string, right: string): Fragment {
  if (dims.length === 0) return sql`TRUE`;
  return join(
    dims.map((d) => sql`${dimKey(d, left)} IS NOT DISTINCT FROM ${dimKey(d, right)}`),
    ' AND ',
  );
}

/** `GROUP BY k_a, k_b`, or a HAVING that drops the one empty group when there are no keys. */
export const groupByKeys = (dims: readonly string[]): Fragment =>
  dims.length === 0 ? sql`HAVING count(*) > 0` : sql`GROUP BY ${keyList(dims)}`;
