import fc from 'fast-check';
import type { FilterCatalog } from '../../src/query/filter-compiler.ts';
import type { FilterNode, FilterOp } from '../../src/query/filter-node.ts';

export interface FieldValuePool {
  /** Values for is/in: ids and names, including ones that match nothing. */
  readonly exact: readonly string[];
  /** Values for contains, matches: fragments of names. */
  readonly text: readonly string[];
}

export interface DrawOptions {
  /** Also draw `in` and `not_in` with an empty list (which a report refuses), one in ten. */
  readonly emptyLists?: boolean;
}

const patterns = ['^B', 'o+', 's$', '^$', '[0-9]', 'a|e'];
const textless: readonly FilterOp[] = ['is', 'not_is', 'in', 'not_in', 'matches'];

/** One leaf over one of the catalog's fields that has a pool, with any of the field's operators. */
export function leafArbitrary(
  catalog: FilterCatalog,
  pools: Record<string, FieldValuePool>,
  options: DrawOptions = {},
): fc.Arbitrary<FilterNode> {
  const fields = Object.keys(catalog).filter((f) => pools[f]);
  return fc.constantFrom(...fields).chain((field) => {
    const pool = pools[field]!;
    const ops = catalog[field]!.ops.filter((op) => pool.text.length > 0 || textless.includes(op));
    return fc.constantFrom(...ops).chain((op: FilterOp) => {
      let value: fc.Arbitrary<Extract<FilterNode, { kind: 'leaf' }>['value']>;
      if (op === 'in' || op === 'not_in') {
        const some = fc.uniqueArray(fc.constantFrom(...pool.exact), { minLength: 1, maxLength: 3 });
        value = options.emptyLists
          ? fc.oneof({ arbitrary: some, weight: 9 }, { arbitrary: fc.constant([]), weight: 1 })
          : some;
      } else if (op === 'is' || op === 'not_is') value = fc.constantFrom(...pool.exact);
      else if (op === 'matches') value = fc.constantFrom(...patterns);
      else value = fc.constantFrom(...pool.text);
      return value.map((v) => ({ kind: 'leaf', field, op, value: v }) as FilterNode);
    });
  });
}

/** Random filter trees over a report's catalog, at most `depth` groups deep. */
export function filterArbitrary(
  catalog: FilterCatalog,
  pools: Record<string, FieldValuePool>,
  depth = 3,
  options: DrawOptions = {},
): fc.Arbitrary<FilterNode> {
  const leaf = leafArbitrary(catalog, pools, options);
  const tree: fc.Arbitrary<FilterNode> = fc.letrec<{ node: FilterNode }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true, maxDepth: depth },
      leaf,
      fc.record({
        kind: fc.constantFrom('and' as const, 'or' as const),
        children: fc.array(tie('node'), { minLength: 1, maxLength: 3 }),
      }),
      fc.record({ kind: fc.constant('not' as const), child: tie('node') }),
    ),
  })).node;
  return tree;
}

/**
 * The catalog's fields a draw over `pools` would never reach, and the operators it would never draw
 * (a text operator of a field whose pool has no text values): empty when every field and operator is drawn.
 */
export function undrawn(catalog: FilterCatalog, pools: Record<string, FieldValuePool>): string[] {
  return Object.entries(catalog).flatMap(([field, f]) => {
    const pool = pools[field];
    if (!pool || pool.exact.length === 0) return [field];
    return f.ops.filter((op) => pool.text.length === 0 && !textless.includes(op)).map((op) => `${field} ${op}`);
  });
}
