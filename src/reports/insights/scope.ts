import type { FilterCatalog, FilterField } from '../../query/filter-compiler.ts';
import type { FilterOp } from '../../query/filter-node.ts';
import { distinctSorted, listHas } from '../../query/dialect.ts';
import { ident, sql, type Fragment } from '../../query/sql.ts';

/** What every Insights plan carries to scope its facts. */
export interface WindowScope {
  readonly organizationId: string;
  readonly categoryId: string;
  readonly startDate: string;
  readonly endDate: string;
  /** The components extension: each ratio's numerator and denominator follow the metrics. */
  readonly components?: boolean;
  /** The rows carry the hidden columns that identify them (fill and compare join on them; plain answers need none). */
  readonly keyed?: boolean;
}

/** The category's current prompts as CTE `p`, optionally only those carrying one analysis type. */
export function promptsCte(categoryId: string, analysisType?: string): Fragment {
  const carrying = analysisType ? sql` AND ${listHas(sql`analysis_types`, sql`${analysisType}`)}` : sql``;
  return sql`scope_prompts AS (
  SELECT id, topic_id, tag_ids, analysis_types FROM prompts
  WHERE category_id = ${categoryId}${carrying}
)`;
}

/** A fact table aliased `f` restricted to the category and the ET window (inclusive). */
export function inWindow(plan: WindowScope): Fragment {
  return sql`f.category_id = ${plan.categoryId} AND f.day BETWEEN CAST(${plan.startDate} AS DATE) AND CAST(${plan.endDate} AS DATE)`;
}

/** The same window over a fact table of another alias. */
export function inWindowAt(alias: string, plan: Omit<WindowScope, 'organizationId'>): Fragment {
  const t = ident(alias);
  return sql`${t}.category_id = ${plan.categoryId} AND ${t}.day BETWEEN CAST(${plan.startDate} AS DATE) AND CAST(${plan.endDate} AS DATE)`;
}

// TRICKY: the few distinct model ids first, then their names: joining every row of a year's answers to the models
// and deduplicating the names cost most of fact-check's 365-day page.
/** The sorted display names of the models in `relation` (which has a `model_id` column), as a JSON list. */
export function modelNames(relation: string): Fragment {
  return sql`coalesce((SELECT ${distinctSorted(sql`mo.name`)} FROM (SELECT DISTINCT model_id FROM ${ident(relation)}) x JOIN models mo ON mo.id = x.model_id), [])`;
}

/** A report's own selection of shared filter fields, optionally with fewer operators. */
export function pickFields(catalog: FilterCatalog, picks: Record<string, readonly FilterOp[] | 'all'>): FilterCatalog {
  const out: Record<string, FilterField> = {};
  for (const [name, ops] of Object.entries(picks)) {
    const field = catalog[name]!;
    out[name] = ops === 'all' ? field : { ...field, ops: field.ops.filter((o) => ops.includes(o)) };
  }
  return out;
}
