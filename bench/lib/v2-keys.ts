import { ref, type Row } from './floor.ts';

/**
 * Group keys of the v2 floors, written by hand over a fact row `f` and its prompt `p`. Once grouped a
 * key is column `k_<name>`; a key with a table shows as `{id, name}` (name from `n_<name>`) and sorts by
 * name, then id, missing last; a date shows as `YYYY-MM-DD` and sorts by itself.
 */
export interface FloorKey {
  readonly name: string;
  readonly expr: string;
  readonly table?: { readonly name: string; readonly column: string };
  /** A text value shown as it is and sorted by itself, missing last. */
  readonly text?: boolean;
}

export const keys = {
  day: { name: 'date', expr: 'f.day' },
  week: { name: 'date', expr: `CAST(date_trunc('week', f.day) AS DATE)` },
  month: { name: 'date', expr: `CAST(date_trunc('month', f.day) AS DATE)` },
  model: { name: 'model', expr: 'f.model_id', table: { name: 'models', column: 'name' } },
  region: { name: 'region', expr: 'f.region_id', table: { name: 'regions', column: 'name' } },
  persona: { name: 'persona', expr: 'f.persona_id', table: { name: 'personas', column: 'name' } },
  topic: { name: 'topic', expr: 'p.topic_id', table: { name: 'topics', column: 'name' } },
  prompt: { name: 'prompt', expr: 'f.prompt_id', table: { name: 'prompts', column: 'prompt' } },
} satisfies Record<string, FloorKey>;

const col = (k: FloorKey, alias?: string) => `${alias ? `${alias}.` : ''}k_${k.name}`;

/** `expr AS k_a, expr AS k_b, ` for a select list over `f` and `p`. */
export const selectKeys = (ks: readonly FloorKey[]) => ks.map((k) => `${k.expr} AS ${col(k)}, `).join('');

/** `k_a, k_b, ` or `alias.k_a, …`. */
export const keyCols = (ks: readonly FloorKey[], alias?: string) => ks.map((k) => `${col(k, alias)}, `).join('');

/** `PARTITION BY k_a, k_b ` for a window, or nothing. */
export const partitionBy = (ks: readonly FloorKey[], alias?: string) =>
  ks.length ? `PARTITION BY ${ks.map((k) => col(k, alias)).join(', ')} ` : '';

/** NULL-safe equality of two relations' keys, each term led by ` AND `. */
export const sameKeys = (ks: readonly FloorKey[], a: string, b: string) =>
  ks.map((k) => ` AND ${col(k, a)} IS NOT DISTINCT FROM ${col(k, b)}`).join('');

/** LEFT JOINs bringing the names of `alias`'s keys as `n_<name>`. */
export const nameJoins = (ks: readonly FloorKey[], alias: string) =>
  ks
    .filter((k) => k.table)
    .map((k) => `LEFT JOIN ${k.table!.name} n_${k.name} ON n_${k.name}.id = ${col(k, alias)}`)
    .join('\n');

/** The output columns of the keys: dates formatted, names beside their ids. */
export const keyOutputs = (ks: readonly FloorKey[], alias: string) =>
  ks
    .map((k) =>
      k.table
        ? `${col(k, alias)}, n_${k.name}.${k.table.column} AS name_${k.name}, `
        : k.text
          ? `${col(k, alias)}, `
          : `strftime(${col(k, alias)}, '%Y-%m-%d') AS k_${k.name}, `,
    )
    .join('');

/** Ascending sort terms of the keys (after nameJoins). */
export const keyOrder = (ks: readonly FloorKey[], alias: string) =>
  ks.flatMap((k) =>
    k.table
      ? [`n_${k.name}.${k.table.column} NULLS LAST`, `${col(k, alias)} NULLS LAST`]
      : k.text
        ? [`${col(k, alias)} NULLS LAST`]
        : [col(k, alias)],
  );

/** The row fields of the keys, as the engine shows them. */
export function keyFields(ks: readonly FloorKey[], r: Row): Row {
  return Object.fromEntries(
    ks.map((k) => [k.name, k.table ? ref(r[`k_${k.name}`], r[`name_${k.name}`]) : r[`k_${k.name}`]]),
  );
}
