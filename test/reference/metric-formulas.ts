import type { Formula, Term } from '../../src/model/metric-formula.ts';

/** A formula evaluated in plain JS over counts, as its declaration reads: the reference the SQL is checked against. */
export function evaluateFormula(
  formulas: Readonly<Record<string, Formula>>,
  column: string,
  counts: Readonly<Record<string, number>>,
  version: 'v1' | 'v2' = 'v2',
): number | null {
  const formula = formulas[column]!;
  if ('complement' in formula) {
    const other = evaluateFormula(formulas, formula.complement, counts, version);
    return other === null ? null : 100 - other;
  }
  const term = (t: Term): number =>
    typeof t === 'string'
      ? counts[t]!
      : 'sum' in t
        ? t.sum.reduce((a: number, x) => a + term(x), 0)
        : t.difference.slice(1).reduce((a: number, x) => a - term(x), term(t.difference[0]));
  const [n, d] = [term(formula.ratio[0]), term(formula.ratio[1])];
  const numerator = formula.percent ? 100 * n : n;
  const empty = typeof formula.empty === 'string' ? formula.empty : formula.empty[version];
  if (d === 0) return empty === 'zero' ? 0 : null;
  return numerator / d;
}
