import type { ColumnBatch } from '../../../query/row-shape.ts';
import { compareValues } from '../../../query/text-order.ts';
import { promptDimensions, type GroupDimension } from '../../insights/dimensions.ts';
import type { DimensionUse, LeanReads } from '../../rows-query.ts';

/** A group of a lean page: its key values (in `group_by` order), their display names, and its answers. */
export interface LeanGroup {
  readonly id: string;
  readonly keys: readonly unknown[];
  readonly names: readonly unknown[];
  n: number;
}

/** A group's identity from its key values (days by their time). */
export const groupId = (keys: readonly unknown[]): string =>
  keys
    .map((v) => (v === null || v === undefined ? '\u0000' : v instanceof Date ? v.getTime() : String(v)))
    .join('\u0001');

/** The dimension table that names a group key (none for the date). */
export function dimensionOf(d: GroupDimension, categoryId: string): DimensionUse | null {
  if (d === 'date') return null;
  const t = promptDimensions[d].table;
  const category = t.scope === 'category';
  return {
    spec: { table: t.table, columns: [t.name], scope: category ? 'category' : 'global' },
    scopeId: category ? categoryId : null,
  };
}

/**
 * The groups of `answers` (its first columns the keys, `n` the answers, possibly split by model), those
 * with answers only, in the statement path's order: dates ascending, then each dimension by display name,
 * then id, missing values last. Names come from the dimension tables in memory.
 */
export function leanGroups(
  dims: readonly GroupDimension[],
  answers: ColumnBatch,
  reads: LeanReads,
  categoryId: string,
): LeanGroup[] {
  const lookups = dims.map((d) => {
    const use = dimensionOf(d, categoryId);
    return use && reads.dimension(use.spec, use.scopeId);
  });
  const keyColumns = dims.map((d) => answers.columns[`k_${d}`]!);
  const n = answers.columns.n!;
  const byId = new Map<string, LeanGroup>();
  for (let i = 0; i < answers.length; i++) {
    const keys = keyColumns.map((c) => c[i]);
    const id = groupId(keys);
    const g = byId.get(id);
    const count = Number(n[i] ?? 0);
    if (g) g.n += count;
    else
      byId.set(id, {
        id,
        keys,
        n: count,
        names: dims.map((d, j) => {
          const lookup = lookups[j];
          if (!lookup || keys[j] === null || keys[j] === undefined) return null;
          const row = lookup.rowOf.get(String(keys[j]));
          return row === undefined
            ? null
            : (lookup.columns[promptDimensions[d as Exclude<GroupDimension, 'date'>].table.name]![row] ?? null);
        }),
      });
  }
  return [...byId.values()]
    .filter((g) => g.n > 0)
    .sort((a, b) => {
      for (let j = 0; j < dims.length; j++) {
        const c =
          dims[j] === 'date'
            ? compareValues(a.keys[j], b.keys[j])
            : compareValues(a.names[j], b.names[j]) || compareValues(a.keys[j], b.keys[j]);
        if (c !== 0) return c;
      }
      return 0;
    });
}
