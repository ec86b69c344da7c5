import fc from 'fast-check';
import type { FilterCatalog } from '../../src/query/filter-compiler.ts';
import type { FilterNode, FilterOp } from '../../src/query/filter-node.ts';

export interface FieldValuePool {
  /** Values for is/in: ids and names, including ones that match nothing. */
  readonly exact: readonly string[];
  /** Values for contains, matches: fragments of names. */
  readonly text: readonly string[];
}

const patterns = ['^B', 'o+', 's$', '^$', '[0-9]', 'a|e'];

/** Random filter trees over a report's catalog, at most `depth` groups deep. */
export function filterArbitrary(catalog: FilterCatalog, pools: Record<string, FieldValuePool>, depth = 3): fc.Arbitrary<FilterNode> {
  const fields = Object.keys(catalog).filter((f) => pools[f]);
  const leaf = fc.constantFrom(...fields).chain((field) => {
    const ops = catalog[field]!.ops;
    const pool = pools[field]!;
    return fc.constantFrom(...ops).chain((op: FilterOp) => {
      let value: fc.Arbitrary<Extract<FilterNode, { kind: 'leaf' }>['value']>;
      if (op === 'in' || op === 'not_in') value = fc.uniqueArray(fc.constantFrom(...pool.exact), { minLength: 1, maxLength: 3 });
      else if (op === 'is' || op === 'not_is') value = fc.constantFrom(...pool.exact);
      else if (op === 'matches') value = fc.constantFrom(...patterns);
      else value = fc.constantFrom(...pool.text);
      return value.map((v) => ({ kind: 'leaf', field, op, value: v }) as FilterNode);
    });
  });
  const tree: fc.Arbitrary<FilterNode> = fc.letrec<{ node: FilterNode }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true, maxDepth: depth },
      leaf,
      fc.record({ kind: fc.constantFrom('and' as const, 'or' as const), children: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ kind: fc.constant('not' as const), child: tie('node') }),
    ),
  })).node;
  return tree;
}
