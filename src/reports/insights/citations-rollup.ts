import { rollupTable, type RollupDef } from '../../engine/rollups.ts';
import { leaves, type FilterNode } from '../../query/filter-node.ts';
import { ident, sql, type Fragment } from '../../query/sql.ts';

/**
 * Citations' daily rollup: per category, ET day, model, root domain and citation category, the
 * citations (`n`) and the first of them (`executed_at`), apart for the prompts that carry the
 * visibility type (`visibility`, the v2 default scope) and the others (v1 reads both). Its keys keep
 * the facts' names, so windows, date buckets, model keys and the filters on model, root domain,
 * citation category and citation tag compile over it unchanged. Counts are summed and the first
 * citation is a minimum, so every metric re-aggregates exactly; a distinct count of domains is exact
 * because the domain is a key. The prompts' analysis types are folded in: a prompt edit makes it stale.
 */
export const citationsDaily: RollupDef = {
  name: 'citations_daily',
  scope: { kind: 'category', prompts: 'TRUE' },
  tables: {
    citations: `SELECT f.category_id, f.day, f.model_id, list_contains(p.analysis_types, 'visibility') AS visibility, f.root_domain, f.citation_category,
       count(*) AS n, min(f.executed_at) AS executed_at
FROM citations f JOIN p ON p.id = f.prompt_id
WHERE f.category_id = $scope
GROUP BY ALL ORDER BY day, model_id, root_domain`,
  },
};

/**
 * Answer-level fields (model, and analysis_type naming `all`, which keeps every prompt) and
 * citation-level fields (over the root domain and category) the rollup keeps.
 */
export const citationsDailyAnswerFields: readonly string[] = ['model', 'analysis_type'];
export const citationsDailyRowFields: readonly string[] = ['citation_category', 'citation_tag'];

const fieldsOf = (node: FilterNode | null) => (node ? leaves(node).map((l) => l.field) : []);

type Leaf = Extract<FilterNode, { kind: 'leaf' }>;

const namesAll = (leaf: Leaf | undefined) =>
  leaf !== undefined && (Array.isArray(leaf.value) ? leaf.value : [leaf.value]).includes('all');

/**
 * The rollup answers v2 domain rankings partitioned by date or model, over the default (visibility)
 * prompts or every prompt (analysis_type all), filtered by the fields it keeps.
 */
export function servedByCitationsDaily(plan: {
  readonly entity: string;
  readonly defaultTypes: boolean;
  readonly partitions: readonly string[];
  readonly filter: {
    readonly answer: FilterNode | null;
    readonly row: FilterNode | null;
    readonly top: Readonly<Record<string, Leaf>>;
  };
}): boolean {
  return (
    plan.entity === 'domain' &&
    (plan.defaultTypes || namesAll(plan.filter.top.analysis_type)) &&
    plan.partitions.every((d) => d === 'date' || d === 'model') &&
    fieldsOf(plan.filter.answer).every((f) => citationsDailyAnswerFields.includes(f)) &&
    fieldsOf(plan.filter.row).every((f) => citationsDailyRowFields.includes(f))
  );
}

/** The prompts a v2 request reads, over the rollup: those carrying visibility by default, else (analysis_type all) every one. */
export const rolledTypes = (plan: { readonly defaultTypes: boolean }): Fragment =>
  plan.defaultTypes ? sql`f.visibility` : sql`TRUE`;

/**
 * How a report's citations are read and counted: from the facts (one row per citation, counted) or
 * from the rollup (one row per key, its citations summed). `where` adds what the source needs besides
 * the window and the filters: the prompts' types on the facts, the visibility flag on the rollup.
 */
export interface CitationSource {
  readonly from: Fragment;
  /** The rows' citations, as an aggregate (BIGINT). */
  readonly count: Fragment;
  /** The same, of the rows a predicate keeps (0 when none). */
  readonly countIf: (predicate: Fragment) => Fragment;
  /** Extra columns a selection of `f` carries (the rollup's `n`), with a leading comma. */
  readonly weight: Fragment;
}

export const factCitations: CitationSource = {
  from: sql`citations f JOIN scope_prompts p ON p.id = f.prompt_id`,
  count: sql`count(*)`,
  countIf: (p) => sql`count(*) FILTER (WHERE ${p})`,
  weight: sql``,
};

export const rolledCitations: CitationSource = {
  from: sql`${ident(rollupTable(citationsDaily, 'citations'))} f`,
  count: sql`CAST(sum(n) AS BIGINT)`,
  countIf: (p) => sql`CAST(coalesce(sum(n) FILTER (WHERE ${p}), 0) AS BIGINT)`,
  weight: sql`, f.n`,
};
