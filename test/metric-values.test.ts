import { describe, expect, it } from 'vitest';
import { memoryDuckDb } from './helpers/memory-duckdb.ts';
import { formulaParts, type Formula } from '../src/model/metric-formula.ts';
import { metrics } from '../src/model/metrics.ts';
import { declaredMetric, type PartValues } from '../src/query/metric-sql.ts';
import { ident, join, render, sql } from '../src/query/sql.ts';
import { evaluateBalanced, evaluateFormula } from './reference/metric-formulas.ts';

/**
 * Every declared metric (src/model/metrics.ts) through src/query/metric-sql.ts on DuckDB alone, in process:
 * its SQL, its JS value and its compiled evaluator give the declaration's value over a fixed grid of counts
 * (zero denominators and parts with no row joined included), and its terms are the declaration's numerator
 * and denominator. test/metric-formulas.test.ts checks the same on chdb too, by property.
 */
type Scalar = Exclude<Formula, { readonly balanced: unknown }>;

const everyDeclared = metrics.flatMap((m) =>
  Object.entries(m.formulas ?? {}).map(([column, formula]) => ({ entry: m.name, column, formula, all: m.formulas! })),
);
const declared = everyDeclared.filter((d): d is typeof d & { formula: Scalar } => !('balanced' in d.formula));
const balanced = everyDeclared.filter((d) => 'balanced' in d.formula);

const partsOf = (formulas: Readonly<Record<string, Formula>>): string[] =>
  [...new Set(Object.values(formulas).flatMap(formulaParts))].sort();

/** Counts where every part differs from the others (so two parts swapped show), zeros and large values among them. */
function grid(names: readonly string[]): Record<string, number>[] {
  const out: Record<string, number>[] = [Object.fromEntries(names.map((p) => [p, 0]))];
  for (let i = 1; i <= 24; i++)
    out.push(Object.fromEntries(names.map((p, k) => [p, i % 5 === 0 ? 0 : ((i * (k + 3) + 7 * k) % 13) + k])));
  out.push(Object.fromEntries(names.map((p, k) => [p, 2_000_000 - 999 * k])));
  return out;
}

const whenEmpty = (formula: Scalar, all: Readonly<Record<string, Formula>>, version: 'v1' | 'v2') => {
  const ratio = 'complement' in formula ? all[formula.complement]! : formula;
  if (!('ratio' in ratio)) throw new Error('a complement of no ratio');
  return typeof ratio.empty === 'string' ? ratio.empty : ratio.empty[version];
};

const duck = memoryDuckDb();

/** The metric's SQL over one row of parts per count vector, in order. */
async function onDuckdb(
  metric: ReturnType<typeof declaredMetric>,
  names: string[],
  rows: PartValues[],
  version: 'v1' | 'v2',
) {
  const values = join(
    rows.map(
      (r, n) =>
        sql`(${n}, ${join(
          names.map((p) => (r[p] === null ? sql`NULL::BIGINT` : sql`CAST(${r[p] as number} AS BIGINT)`)),
          ', ',
        )})`,
    ),
    ', ',
  );
  const columns = join([sql`n`, ...names.map((p) => ident(p))], ', ');
  const q = render(
    sql`SELECT ${metric.sql(Object.fromEntries(names.map((p) => [p, ident(p)])), version)} AS v FROM (VALUES ${values}) AS t(${columns}) ORDER BY n`,
  );
  const reader = await duck().runAndReadAll(q.text, q.params as never);
  return reader.getColumnsJS()[0]!.map((v) => (v === null ? null : Number(v)));
}

describe('declared metrics, in SQL and in JS', () => {
  it('give the declaration’s value over counts, empty denominators included, in each API version', async () => {
    for (const d of declared) {
      const names = partsOf(d.all);
      const metric = declaredMetric(d.entry, d.column);
      for (const version of ['v1', 'v2'] as const) {
        const empty = whenEmpty(d.formula, d.all, version);
        // A denominator declared never 0 is never asked to be divided by 0.
        const rows = grid(names).filter(
          (counts) => empty !== 'never' || evaluateFormula(d.all, d.column, counts, version) !== null,
        );
        const expected = rows.map((counts) => evaluateFormula(d.all, d.column, counts, version));
        const label = `${d.entry}: ${d.column} (${version})`;
        expect(rows.length, label).toBeGreaterThanOrEqual(15);
        expect(
          rows.map((r) => metric.value(r, version)),
          label,
        ).toEqual(expected);
        const evaluate = metric.evaluator(version);
        expect(rows.map(evaluate), label).toEqual(expected);
        expect(await onDuckdb(metric, names, rows, version), label).toEqual(expected);
      }
    }
  });

  it('the v2 rule when no version is asked for', () => {
    const m = declaredMetric('average_position', 'average_position');
    const none = { position_sum: 0, mentions: 0 };
    expect(m.value(none)).toBeNull();
    expect(m.evaluator()(none)).toBeNull();
    expect(m.value(none, 'v1')).toBe(0);
    expect(m.evaluator('v1')(none)).toBe(0);
    expect(render(m.sql({ position_sum: sql`s`, mentions: sql`m` })).text).toBe('s / NULLIF(m, 0)');
  });

  it('a part with no row joined (NULL) makes the metric NULL, or 0 where the declaration says so', async () => {
    const cases: [string, string, PartValues, 'v1' | 'v2', number | null][] = [
      ['visibility_score', 'visibility_score', { mentioned: null, executions: 4 }, 'v2', null],
      ['visibility_score', 'visibility_score', { mentioned: 3, executions: null }, 'v2', null],
      ['average_position', 'average_position', { position_sum: null, mentions: 2 }, 'v1', 0],
      ['average_position', 'average_position', { position_sum: 6, mentions: null }, 'v2', null],
      ['accuracy, accurate, inaccurate', 'accuracy', { accurate: 2, inaccurate: null }, 'v2', null],
      ['accuracy, accurate, inaccurate', 'accuracy', { accurate: null, inaccurate: 2 }, 'v2', null],
      ['positive_sentiment, negative_sentiment', 'positive_sentiment', { positive: null, assessments: 4 }, 'v2', null],
      ['positive_sentiment, negative_sentiment', 'negative_sentiment', { positive: null, assessments: 4 }, 'v2', null],
      ['positive_sentiment, negative_sentiment', 'negative_sentiment', { positive: 1, assessments: 4 }, 'v2', 75],
    ];
    for (const [entry, column, parts, version, expected] of cases) {
      const m = declaredMetric(entry, column);
      const label = `${column} ${JSON.stringify(parts)}`;
      expect(m.value(parts, version), label).toBe(expected);
      expect(m.evaluator(version)(parts), label).toBe(expected);
      expect(await onDuckdb(m, Object.keys(parts).sort(), [parts], version), label).toEqual([expected]);
    }
  });
});

describe('balanced metrics (a share per model, averaged over the models)', () => {
  const groups = [
    { perModel: [{ numerator: 1, denominator: 3 }], models: 1 },
    { perModel: [{ numerator: 1, denominator: 3 }], models: 4 },
    {
      perModel: [
        { numerator: 7, denominator: 10 },
        { numerator: 1, denominator: 10 },
        { numerator: 2, denominator: 3 },
        { numerator: 1_999_999, denominator: 2_000_000 },
      ],
      models: 5,
    },
    { perModel: [0.1, 0.2, 0.3, 0.7].map((x) => ({ numerator: Math.round(x * 1e6), denominator: 1e6 })), models: 4 },
  ];

  it('give the declaration’s value in SQL and in JS, the shares added smallest first', async () => {
    expect(balanced.length).toBeGreaterThanOrEqual(3);
    for (const d of balanced) {
      const metric = declaredMetric(d.entry, d.column);
      const [n, den, m] = formulaParts(d.formula);
      for (const [g, group] of groups.entries()) {
        const expected = evaluateBalanced(d.formula, group.perModel, group.models);
        const parts = {
          [n!]: group.perModel.map((x) => x.numerator),
          [den!]: group.perModel.map((x) => x.denominator),
          [m!]: group.models,
        };
        const label = `${d.entry}: ${d.column}, group ${g}`;
        expect(metric.value(parts), label).toBe(expected);
        expect(metric.evaluator()(parts), label).toBe(expected);
        const rows = join(
          group.perModel.map((x) => sql`(CAST(${x.numerator} AS BIGINT), CAST(${x.denominator} AS BIGINT))`),
          ', ',
        );
        const q = render(
          sql`SELECT ${metric.sql({ [n!]: sql`num`, [den!]: sql`den`, [m!]: sql`CAST(${group.models} AS BIGINT)` })} AS v FROM (VALUES ${rows}) AS t(num, den)`,
        );
        const got = (await duck().runAndReadAll(q.text, q.params as never)).getColumnsJS()[0]![0];
        expect(Number(got), label).toBe(expected);
      }
    }
  });

  it('have the sum of the shares and the models for terms', () => {
    const share = declaredMetric('citation_share', 'citation_share');
    const t = share.terms({ citations: sql`n`, model_citations: sql`d`, models: sql`m` });
    expect([render(t.numerator).text, render(t.denominator).text]).toEqual(['list_sum(list_sort(list(n / d)))', 'm']);
    expect(share.termValues({ citations: [1, 3], model_citations: [4, 4], models: 3 })).toEqual({
      numerator: 1,
      denominator: 3,
    });
    expect(() => share.value({ citations: 1, model_citations: 4, models: 1 })).toThrow(/one value per model/);
  });
});

describe('a metric’s terms (the components extension)', () => {
  it('are the ratio’s numerator and denominator, sums and differences unparenthesised at the top', () => {
    const accuracy = declaredMetric('accuracy, accurate, inaccurate', 'accuracy');
    const bound = { accurate: sql`a`, inaccurate: sql`i` };
    const t = accuracy.terms(bound);
    expect([render(t.numerator).text, render(t.denominator).text]).toEqual(['a', 'a + i']);
    expect(accuracy.termValues({ accurate: 3, inaccurate: 5 })).toEqual({ numerator: 3, denominator: 8 });
    expect(accuracy.termValues({ accurate: 3, inaccurate: null })).toEqual({ numerator: 3, denominator: null });
    const above = declaredMetric(
      'position1_percentage … position3_percentage, position_above3_percentage',
      'position_above3_percentage',
    );
    expect(above.termValues({ shown: 20, at1: 2, at2: 3, at3: 4 })).toEqual({ numerator: 11, denominator: 20 });
    expect(render(above.terms({ shown: sql`s`, at1: sql`a`, at2: sql`b`, at3: sql`c` }).numerator).text).toBe(
      's - a - b - c',
    );
  });

  it('of a complement are its declared parts, not the other metric’s', () => {
    const negative = declaredMetric('positive_sentiment, negative_sentiment', 'negative_sentiment');
    expect(negative.termValues({ positive: 3, assessments: 10 })).toEqual({ numerator: 7, denominator: 10 });
    const t = negative.terms({ positive: sql`p`, assessments: sql`n` });
    expect([render(t.numerator).text, render(t.denominator).text]).toEqual(['n - p', 'n']);
    expect(render(negative.sql({ positive: sql`p`, assessments: sql`n` })).text).toBe('100 - 100 * p / n');
    expect(negative.value({ positive: 1, assessments: 8 })).toBe(87.5);
  });

  it('name the part a report does not bind, in SQL and in JS', () => {
    const accuracy = declaredMetric('accuracy, accurate, inaccurate', 'accuracy');
    const unbound = /the metric formula reads the part 'inaccurate', which the report does not bind/;
    expect(() => accuracy.terms({ accurate: sql`a` })).toThrow(unbound);
    expect(() => accuracy.sql({ accurate: sql`a` })).toThrow(unbound);
    expect(() => accuracy.termValues({ accurate: 1 })).toThrow(unbound);
    expect(() => accuracy.value({ accurate: 1 })).toThrow(unbound);
    expect(() => declaredMetric('accuracy, accurate, inaccurate', 'nope')).toThrow(
      "src/model/metrics.ts declares no formula for nope in 'accuracy, accurate, inaccurate'",
    );
    expect(() => declaredMetric('no such entry', 'accuracy')).toThrow(/declares no formula for accuracy/);
    expect(() => declaredMetric('rank (visibility)', 'rank')).toThrow(
      "src/model/metrics.ts declares no formula for rank in 'rank (visibility)'",
    );
  });
});
