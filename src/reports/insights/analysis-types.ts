import type { FilterField } from '../../query/filter-compiler.ts';
import type { FilterNode } from '../../query/filter-node.ts';
import { listHasAny } from '../../query/dialect.ts';
import { list, sql, type Fragment } from '../../query/sql.ts';

/** The v2 vocabulary: `factcheck` is stored as `accuracy`; `all` stands for every type. */
export const analysisTypes = ['visibility', 'sentiment', 'factcheck'] as const;
export type AnalysisType = (typeof analysisTypes)[number];

const stored = (t: string) => (t === 'factcheck' ? 'accuracy' : t);

/** The types a leaf's values name, in canonical order (`all` is every type; unknown values name none). */
export function typesNamed(values: readonly unknown[]): AnalysisType[] {
  if (values.includes('all')) return [...analysisTypes];
  return analysisTypes.filter((t) => values.includes(t));
}

/** The prompts (`p`) carrying any of the types. */
export function carryingAny(types: readonly AnalysisType[]): Fragment {
  if (types.length === 0) return sql`FALSE`;
  return listHasAny(sql`p.analysis_types`, sql`[${list(types.map(stored))}]`);
}

/** `analysis_type is|in`: the answer's prompt carries one of the named types (`all`: any prompt). */
export const analysisTypeField: FilterField = {
  ops: ['is', 'in'],
  valueType: 'string',
  match: (_op, values) => (values.includes('all') ? sql`TRUE` : carryingAny(typesNamed(values))),
};

/** The types a report reads: those of the filter's top-level analysis_type leaf, else the report's default. */
export function typesOf(
  leaf: Extract<FilterNode, { kind: 'leaf' }> | undefined,
  fallback: readonly AnalysisType[],
): AnalysisType[] {
  return leaf ? typesNamed(Array.isArray(leaf.value) ? leaf.value : [leaf.value]) : [...fallback];
}

/** The prompts a plan reads: with the default types, those carrying them; otherwise the filter's leaf decides. */
export const typesScope = (plan: { analysisTypes: readonly AnalysisType[]; defaultTypes: boolean }): Fragment =>
  plan.defaultTypes ? carryingAny(plan.analysisTypes) : sql`TRUE`;
