import type { Formula, Term } from '../../src/model/metric-formula.ts';

/** A formula evaluated in plain JS over counts, as its declaration reads: the reference the SQL is checked against. */
export function evaluateFormula(
  formulas: Readonly<Record<string, Formula>>,
  column: string,
  counts: Readonly<Record<string, number>>,
  version: 'v1' | 'v2' = 'v2',
): number | null {
  const formula = formulas[column]!;
  if ('balanced' in formula) throw new Error(`${column} is balanced: see evaluateBalanced`);
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

/**
 * A balanced formula over one (numerator, denominator) pair per model and the models counted: each model's share, the
 * shares added smallest first, then divided by the models.
 */
export function evaluateBalanced(
  formula: Formula,
  perModel: readonly { readonly numerator: number; readonly denominator: number }[],
  models: number,
): number {
  if (!('balanced' in formula)) throw new Error('not a balanced formula');
  const shares = perModel.map((m) => m.numerator / m.denominator);
  shares.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let sum = 0;
  for (const share of shares) sum += share;
  return formula.percent ? (100 * sum) / models : sum / models;
}
