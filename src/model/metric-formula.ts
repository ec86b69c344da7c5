/**
 * A derived metric as an expression over named counts (its parts), declared beside its prose in
 * src/model/metrics.ts. Reports bind the part names to their SQL (src/query/metric-sql.ts renders
 * the expression in the dialect), and the components extension shows the ratio's two terms.
 */
export type Term = string | { readonly sum: readonly Term[] } | { readonly difference: readonly [Term, ...Term[]] };

/** What a ratio is when its denominator is 0: NULL, 0, or never asked (the denominator is never 0 in a row). */
export type WhenEmpty = 'null' | 'zero' | 'never';

export type Formula =
  | {
      readonly ratio: readonly [numerator: Term, denominator: Term];
      readonly percent?: true;
      /** One rule, or one per API version (v1's client types every metric as a number, so it takes 0). */
      readonly empty: WhenEmpty | { readonly v1: WhenEmpty; readonly v2: WhenEmpty };
    }
  | {
      /**
       * Model-balanced: per model, its numerator over its denominator; those ratios added in ascending order (so the
       * double never depends on the order rows are read) and divided by `models`, the models counted in the group,
       * so a model without a numerator row adds 0.
       */
      readonly balanced: readonly [numerator: string, denominator: string];
      readonly models: string;
      readonly percent?: true;
    }
  | {
      /** 100 less another metric of the same declaration, so the two add up to exactly 100. */
      readonly complement: string;
      /** Its numerator and denominator, for components. */
      readonly parts: readonly [numerator: Term, denominator: Term];
    };

/** The part names a term reads. */
export const termParts = (term: Term): string[] =>
  typeof term === 'string' ? [term] : 'sum' in term ? term.sum.flatMap(termParts) : term.difference.flatMap(termParts);

/** A term as text: `accurate + inaccurate`, `shown − at1 − at2 − at3`. */
export function termText(term: Term, nested = false): string {
  if (typeof term === 'string') return term;
  const text =
    'sum' in term
      ? term.sum.map((t) => termText(t, true)).join(' + ')
      : term.difference.map((t) => termText(t, true)).join(' − ');
  return nested ? `(${text})` : text;
}

const emptyText: Record<WhenEmpty, string> = {
  null: 'NULL when the denominator is 0',
  zero: '0 when the denominator is 0',
  never: 'the denominator is never 0',
};

/** The parts a formula reads. */
export const formulaParts = (formula: Formula): string[] =>
  'complement' in formula
    ? formula.parts.flatMap(termParts)
    : 'balanced' in formula
      ? [...formula.balanced, formula.models]
      : formula.ratio.flatMap(termParts);

/** A formula as the docs show it. */
export function formulaText(formula: Formula): string {
  if ('complement' in formula) return `100 − ${formula.complement}`;
  if ('balanced' in formula) {
    const [n, d] = formula.balanced;
    return `${formula.percent ? '100 × ' : ''}(the sum over models of ${n} / ${d}, added in ascending order) / ${formula.models}`;
  }
  const [n, d] = formula.ratio;
  const quotient = `${formula.percent ? '100 × ' : ''}${termText(n, true)} / ${termText(d, true)}`;
  const empty =
    typeof formula.empty === 'string'
      ? emptyText[formula.empty]
      : `v1: ${emptyText[formula.empty.v1]}; v2: ${emptyText[formula.empty.v2]}`;
  return `${quotient} (${empty})`;
}

/**
 * One key of a rank's order: a part, best first. `desc` puts the largest first, `asc` the smallest, and
 * `requested` follows the metric the request sorts by (largest first, but smallest for a position).
 * `nullsLast` where the part can be NULL.
 */
export interface RankKey {
  readonly by: string;
  readonly best: 'desc' | 'asc' | 'requested';
  readonly nullsLast?: true;
}

/**
 * A metric that is no quotient: a count (a part the report binds: count(*) over the facts, a sum of
 * counts over a rollup), an instant (the earliest or latest of a part), a rank (the 1-based place by its
 * keys, ties broken by the row's names and ids as `ties` says), or an attribute of the row's entity.
 */
export type Measure =
  | { readonly count: string }
  | { readonly earliest: string }
  | { readonly latest: string }
  | { readonly rank: readonly RankKey[]; readonly ties: string }
  | { readonly attribute: string };

const bestText: Record<RankKey['best'], string> = {
  desc: 'largest first',
  asc: 'smallest first',
  requested: 'best first',
};

/** A measure as the docs show it. */
export function measureText(measure: Measure): string {
  if ('count' in measure) return `count: ${measure.count}`;
  if ('earliest' in measure) return `min(${measure.earliest})`;
  if ('latest' in measure) return `max(${measure.latest})`;
  if ('attribute' in measure) return `the row's ${measure.attribute}`;
  const keys = measure.rank.map((k) => `${k.by} (${bestText[k.best]}${k.nullsLast ? ', NULLs last' : ''})`);
  return `1-based place by ${[...keys, measure.ties].join(', then ')}`;
}
