import fc from 'fast-check';
import type { FilterCatalog } from '../../src/query/filter-compiler.ts';
import { and, type FilterNode } from '../../src/query/filter-node.ts';
import { filterArbitrary, leafArbitrary, type DrawOptions, type FieldValuePool } from './filter-arbitrary.ts';

/**
 * How a report composes its filter, as its validation reads it: any tree; a tree of answer-level
 * fields AND a tree of row-level fields AND at most one leaf per top-level field (`readLayeredFilter`);
 * the channels' prompt part AND channel text part AND one exact channel leaf (`readChannelFilter`);
 * or a top-level and of leaves, one per field (`readClaimFilter`).
 */
export type FilterShape =
  | { readonly kind: 'tree' }
  | { readonly kind: 'layered'; readonly rowFields?: readonly string[]; readonly topLevel?: readonly string[] }
  | { readonly kind: 'channel' }
  | { readonly kind: 'leaves' };

const only = (catalog: FilterCatalog, keep: (field: string) => boolean): FilterCatalog =>
  Object.fromEntries(Object.entries(catalog).filter(([f]) => keep(f)));

/** `parts` joined by a top-level and, each present or not (none: undefined). */
const allOf = (parts: fc.Arbitrary<FilterNode | undefined>[]) =>
  fc.tuple(...parts).map((xs) => and(xs.filter((x): x is FilterNode => x !== undefined)) ?? undefined);

const maybe = (catalog: FilterCatalog, draw: (c: FilterCatalog) => fc.Arbitrary<FilterNode>) =>
  Object.keys(catalog).length > 0 ? fc.option(draw(catalog), { nil: undefined }) : fc.constant(undefined);

/** Filters shaped as the report accepts them (most draws are answered), and one in five any tree over its catalog (often refused). */
export function reportFilterArbitrary(
  catalog: FilterCatalog,
  shape: FilterShape,
  pools: Record<string, FieldValuePool>,
  options: DrawOptions = {},
): fc.Arbitrary<FilterNode | undefined> {
  const tree = (c: FilterCatalog) => filterArbitrary(c, pools, 2, options);
  const leaf = (c: FilterCatalog) => leafArbitrary(c, pools, options);
  let shaped: fc.Arbitrary<FilterNode | undefined>;
  switch (shape.kind) {
    case 'tree':
      shaped = tree(catalog);
      break;
    case 'layered': {
      const rows = shape.rowFields ?? [];
      const top = shape.topLevel ?? [];
      shaped = allOf([
        maybe(
          only(catalog, (f) => !rows.includes(f) && !top.includes(f)),
          tree,
        ),
        maybe(
          only(catalog, (f) => rows.includes(f)),
          tree,
        ),
        ...top
          .filter((f) => catalog[f])
          .map((f) =>
            maybe(
              only(catalog, (g) => g === f),
              leaf,
            ),
          ),
      ]);
      break;
    }
    case 'channel': {
      const channel = catalog.channel!;
      shaped = allOf([
        maybe(
          only(catalog, (f) => f !== 'channel'),
          tree,
        ),
        maybe({ channel: { ...channel, ops: channel.ops.filter((o) => o !== 'is' && o !== 'in') } }, tree),
        maybe({ channel: { ...channel, ops: channel.ops.filter((o) => o === 'is' || o === 'in') } }, leaf),
      ]);
      break;
    }
    case 'leaves':
      shaped = fc
        .shuffledSubarray(Object.keys(catalog), { minLength: 1, maxLength: 3 })
        .chain((fields) => fc.tuple(...fields.map((f) => leaf(only(catalog, (g) => g === f)))))
        .map((leaves) => and(leaves) ?? undefined);
      break;
  }
  return fc.oneof({ arbitrary: shaped, weight: 4 }, { arbitrary: tree(catalog), weight: 1 });
}
