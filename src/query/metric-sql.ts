import type { Formula, Term, WhenEmpty } from '../model/metric-formula.ts';
import { metrics } from '../model/metrics.ts';
import { sortedSum } from './dialect.ts';
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
  /** The metric computed in JS over the parts' values, in the SQL's order of operations, so the double is the same bit for bit. */
  value(parts: PartValues, version?: 'v1' | 'v2'): number | null;
  /** `value` for one version, resolved once: for rows by the thousand. */
  evaluator(version?: 'v1' | 'v2'): (parts: PartValues) => number | null;
  /** Its numerator and denominator in JS (components). */
  termValues(parts: PartValues): { numerator: number | null; denominator: number | null };
}

/**
 * Each part's value for one row; null as SQL's NULL (no row joined). A balanced formula's numerator and
 * denominator are one value per model, in the same order.
 */
export type PartValues = Readonly<Record<string, number | null | readonly number[]>>;

function scalar(parts: PartValues, name: string): number | null {
  const bound = parts[name];
  if (bound === undefined)
    throw new Error(`the metric formula reads the part '${name}', which the report does not bind`);
  if (typeof bound === 'object' && bound !== null) throw new Error(`the part '${name}' is one value per model here`);
  return bound;
}

function perModel(parts: PartValues, name: string): readonly number[] {
  const bound = parts[name];
  if (!Array.isArray(bound)) throw new Error(`the balanced formula reads '${name}' as one value per model`);
  return bound as readonly number[];
}

const single = (bound: PartValues[string] | undefined): number | null => (typeof bound === 'number' ? bound : null);

/** Each model's ratio, added in ascending order as the SQL adds them. */
function balancedSum(numerators: readonly number[], denominators: readonly number[]): number {
  return numerators
    .map((n, i) => n / denominators[i]!)
    .sort((a, b) => a - b)
    .reduce((sum, r) => sum + r, 0);
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

function termValue(term: Term, parts: PartValues): number | null {
  if (typeof term === 'string') return scalar(parts, term);
  const values = ('sum' in term ? term.sum : term.difference).map((t) => termValue(t, parts));
  if (values.some((v) => v === null)) return null;
  const [first, ...rest] = values as number[];
  return 'sum' in term ? rest.reduce((a, v) => a + v, first!) : rest.reduce((a, v) => a - v, first!);
}

function quotientValue(numerator: number | null, denominator: number | null, empty: WhenEmpty): number | null {
  const q = numerator === null || denominator === null || denominator === 0 ? null : numerator / denominator;
  return empty === 'zero' && q === null ? 0 : q;
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
    if ('balanced' in f) {
      const [n, d] = f.balanced.map((t) => termSql(t, parts, false)) as [Fragment, Fragment];
      const sum = sortedSum(sql`${n} / ${d}`);
      return sql`${f.percent ? sql`100 * ${sum}` : sum} / ${termSql(f.models, parts, false)}`;
    }
    const [n, d] = f.ratio.map((t) => termSql(t, parts, true)) as [Fragment, Fragment];
    const empty = typeof f.empty === 'string' ? f.empty : f.empty[version];
    return quotient(f.percent ? sql`100 * ${n}` : n, d, empty);
  };
  const compiled = (f: Formula, version: 'v1' | 'v2'): ((parts: PartValues) => number | null) => {
    if ('complement' in f) {
      const other = compiled(declaration.formulas![f.complement]!, version);
      return (parts) => {
        const v = other(parts);
        return v === null ? null : 100 - v;
      };
    }
    if ('balanced' in f) return (parts) => evaluate(f, parts, version);
    const [n, d] = f.ratio;
    const empty = typeof f.empty === 'string' ? f.empty : f.empty[version];
    if (typeof n === 'string' && typeof d === 'string' && !f.percent)
      return (parts) => quotientValue(single(parts[n]), single(parts[d]), empty);
    return (parts) => evaluate(f, parts, version);
  };
  const evaluate = (f: Formula, parts: PartValues, version: 'v1' | 'v2'): number | null => {
    if ('complement' in f) {
      const other = evaluate(declaration.formulas![f.complement]!, parts, version);
      return other === null ? null : 100 - other;
    }
    if ('balanced' in f) {
      const sum = balancedSum(perModel(parts, f.balanced[0]), perModel(parts, f.balanced[1]));
      const models = scalar(parts, f.models);
      return models === null ? null : (f.percent ? 100 * sum : sum) / models;
    }
    const [n, d] = f.ratio.map((t) => termValue(t, parts)) as [number | null, number | null];
    const empty = typeof f.empty === 'string' ? f.empty : f.empty[version];
    return quotientValue(f.percent && n !== null ? 100 * n : n, d, empty);
  };
  return {
    column,
    formula,
    sql: (parts, version = 'v2') => render(formula, parts, version),
    value: (parts, version = 'v2') => evaluate(formula, parts, version),
    evaluator: (version = 'v2') => compiled(formula, version),
    termValues(parts) {
      if ('balanced' in formula) {
        const sum = balancedSum(perModel(parts, formula.balanced[0]), perModel(parts, formula.balanced[1]));
        return { numerator: sum, denominator: scalar(parts, formula.models) };
      }
      const [n, d] = 'complement' in formula ? formula.parts : formula.ratio;
      return { numerator: termValue(n, parts), denominator: termValue(d, parts) };
    },
    terms(parts) {
      if ('balanced' in formula) {
        const [n, d] = formula.balanced.map((t) => termSql(t, parts, false)) as [Fragment, Fragment];
        return { numerator: sortedSum(sql`${n} / ${d}`), denominator: termSql(formula.models, parts, false) };
      }
      const [n, d] = 'complement' in formula ? formula.parts : formula.ratio;
      return { numerator: termSql(n, parts, false), denominator: termSql(d, parts, false) };
    },
  };
}
