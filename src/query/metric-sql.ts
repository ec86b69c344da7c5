import type { Formula, Term, WhenEmpty } from '../model/metric-formula.ts';
import { metrics } from '../model/metrics.ts';
import { join, sql, type Fragment } from './sql.ts';

/** SQL for each part a formula names, over the relation the report computes the metric in: column references or calls. */
export type PartsSql = Readonly<Record<string, Fragment>>;

export interface RatioTerms {
  readonly numerator: Fragment;
  readonly denominator: Fragment;
}

/** A metric as its declaration defines it, rendered over the parts a report binds. */
export interface DeclaredMetric {
  readonly column: string;
  readonly formula: Formula;
  /** The metric's expression. `version` picks the rule of a formula whose empty case differs by API version. */
  sql(parts: PartsSql, version?: 'v1' | 'v2'): Fragment;
  /** Its numerator and denominator (components). */
  terms(parts: PartsSql): RatioTerms;
}

function termSql(term: Term, parts: PartsSql, nested: boolean): Fragment {
  if (typeof term === 'string') {
    const bound = parts[term];
    if (!bound) throw new Error(`the metric formula reads the part '${term}', which the report does not bind`);
    return bound;
  }
  const [terms, operator] = 'sum' in term ? [term.sum, ' + '] : [term.difference, ' - '];
  const text = join(
    terms.map((t) => termSql(t, parts, true)),
    operator,
  );
  return nested ? sql`(${text})` : text;
}

function quotient(numerator: Fragment, denominator: Fragment, empty: WhenEmpty): Fragment {
  if (empty === 'never') return sql`${numerator} / ${denominator}`;
  if (empty === 'null') return sql`${numerator} / NULLIF(${denominator}, 0)`;
  // TRICKY: coalesce rather than CASE on the denominator, so that a part that is NULL (no row joined) also gives 0.
  return sql`coalesce(${numerator} / NULLIF(${denominator}, 0), 0.0)`;
}

/**
 * The metric `column` of the declaration named `entry` in src/model/metrics.ts. Throws when the
 * declaration has no formula for it, so a report that names a metric the model does not define fails
 * as it loads.
 */
export function declaredMetric(entry: string, column: string): DeclaredMetric {
  const declaration = metrics.find((m) => m.name === entry);
  const formula = declaration?.formulas?.[column];
  if (!declaration || !formula) throw new Error(`src/model/metrics.ts declares no formula for ${column} in '${entry}'`);
  const render = (f: Formula, parts: PartsSql, version: 'v1' | 'v2'): Fragment => {
    if ('complement' in f) {
      const other = declaration.formulas?.[f.complement];
      if (!other || 'complement' in other)
        throw new Error(`'${entry}': ${column} complements ${f.complement}, which is no ratio of the same declaration`);
      return sql`100 - ${render(other, parts, version)}`;
    }
    const [n, d] = f.ratio.map((t) => termSql(t, parts, true)) as [Fragment, Fragment];
    const empty = typeof f.empty === 'string' ? f.empty : f.empty[version];
    return quotient(f.percent ? sql`100 * ${n}` : n, d, empty);
  };
  return {
    column,
    formula,
    sql: (parts, version = 'v2') => render(formula, parts, version),
    terms(parts) {
      const [n, d] = 'complement' in formula ? formula.parts : formula.ratio;
      return { numerator: termSql(n, parts, false), denominator: termSql(d, parts, false) };
    },
  };
}
