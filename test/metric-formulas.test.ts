import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join as joinPath } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { formulaParts, type Formula } from '../src/model/metric-formula.ts';
import { metrics } from '../src/model/metrics.ts';
import { declaredMetric } from '../src/query/metric-sql.ts';
import { ident, join, render, sql } from '../src/query/sql.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { evaluateBalanced, evaluateFormula } from './reference/metric-formulas.ts';

/**
 * Derived metrics are declared once (src/model/metrics.ts) and rendered by src/query/metric-sql.ts:
 * the SQL each backend computes from a declaration equals the declaration evaluated in JS, bit for bit,
 * and every declared formula is the one some report computes.
 */
const everyDeclared = metrics.flatMap((m) =>
  Object.entries(m.formulas ?? {}).map(([column, formula]) => ({
    entry: m.name,
    column,
    formula,
    formulas: m.formulas!,
  })),
);
type Scalar = Exclude<Formula, { readonly balanced: unknown }>;
const declared = everyDeclared.filter((d): d is typeof d & { formula: Scalar } => !('balanced' in d.formula));
const balanced = everyDeclared.filter((d) => 'balanced' in d.formula);

const partsOf = (formulas: Readonly<Record<string, Formula>>): string[] =>
  [...new Set(Object.values(formulas).flatMap(formulaParts))].sort();

const srcFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) =>
    statSync(joinPath(dir, name)).isDirectory()
      ? srcFiles(joinPath(dir, name))
      : name.endsWith('.ts')
        ? [joinPath(dir, name)]
        : [],
  );

let duck: Engine;
let chdb: Engine;
beforeAll(async () => {
  duck = await openFixture({}, { rollups: false });
  chdb = await openFixture({}, { backend: 'chdb' });
}, 60_000);
afterAll(async () => {
  await chdb?.close();
  await duck?.close();
});

describe('metric formulas', () => {
  it('render as SQL over the parts a report binds', () => {
    const text = (entry: string, column: string, version?: 'v1' | 'v2') => {
      const parts = Object.fromEntries(
        partsOf(metrics.find((m) => m.name === entry)!.formulas!).map((p) => [p, ident(p)]),
      );
      return render(declaredMetric(entry, column).sql(parts, version)).text;
    };
    expect(text('visibility_score', 'visibility_score')).toBe('"mentioned" / NULLIF("executions", 0)');
    expect(text('average_position', 'average_position', 'v1')).toBe(
      'coalesce("position_sum" / NULLIF("mentions", 0), 0.0)',
    );
    expect(text('average_position', 'average_position', 'v2')).toBe('"position_sum" / NULLIF("mentions", 0)');
    expect(
      text('position1_percentage … position3_percentage, position_above3_percentage', 'position_above3_percentage'),
    ).toBe('("shown" - "at1" - "at2" - "at3") / "shown"');
    expect(text('positive_sentiment, negative_sentiment', 'negative_sentiment')).toBe(
      '100 - 100 * "positive" / "assessments"',
    );
    expect(
      render(
        declaredMetric('accuracy, accurate, inaccurate', 'accuracy').terms({ accurate: sql`a`, inaccurate: sql`i` })
          .denominator,
      ).text,
    ).toBe('a + i');
  });

  it('refuse a metric the model does not declare, and a part the report does not bind', () => {
    expect(() => declaredMetric('visibility_score', 'nope')).toThrow(/declares no formula for nope/);
    expect(() => declaredMetric('visibility_score', 'visibility_score').sql({ mentioned: sql`m` })).toThrow(
      /'executions'/,
    );
  });

  it('compute on DuckDB, on chdb and in JS (lean pages) exactly what the declaration says, empty denominators included', async () => {
    const count = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 2_000_000 }));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...declared),
        fc.constantFrom('v1' as const, 'v2' as const),
        fc.array(count, { minLength: 8, maxLength: 8 }),
        async (d, version, values) => {
          const names = partsOf(d.formulas);
          const counts = Object.fromEntries(names.map((p, i) => [p, values[i]!]));
          const expected = evaluateFormula(d.formulas, d.column, counts, version);
          const ratio = 'complement' in d.formula ? d.formulas[d.formula.complement]! : d.formula;
          const never =
            'ratio' in ratio && (typeof ratio.empty === 'string' ? ratio.empty : ratio.empty[version]) === 'never';
          // A formula whose denominator is never 0 in a report's rows is not asked to divide by 0.
          fc.pre(!(never && expected === null));
          const row = join(
            names.map((p) => sql`CAST(${counts[p]!} AS BIGINT) AS ${ident(p)}`),
            ', ',
          );
          const query = sql`SELECT ${declaredMetric(d.entry, d.column).sql(Object.fromEntries(names.map((p) => [p, ident(p)])), version)} AS v FROM (SELECT ${row}) AS counts`;
          expect(declaredMetric(d.entry, d.column).value(counts, version), `${d.column} in JS`).toBe(expected);
          expect(declaredMetric(d.entry, d.column).evaluator(version)(counts), `${d.column} compiled`).toBe(expected);
          for (const engine of [duck, chdb]) {
            const got = (await engine.core.backend.read(query)).columns.v![0];
            expect(
              got === null || got === undefined ? null : Number(got),
              `${d.column} ${JSON.stringify(counts)} on ${engine === duck ? 'DuckDB' : 'chdb'}`,
            ).toBe(expected);
          }
        },
      ),
      { numRuns: Number(process.env.AEA_PROPERTY_RUNS ?? 60) },
    );
  }, 120_000);

  it('compute a balanced share (per model, averaged over the models) on DuckDB, on chdb and in JS alike', async () => {
    const pair = fc
      .integer({ min: 1, max: 2_000_000 })
      .chain((denominator) =>
        fc.record({ numerator: fc.integer({ min: 1, max: denominator }), denominator: fc.constant(denominator) }),
      );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...balanced),
        fc.array(pair, { minLength: 1, maxLength: 7 }),
        fc.integer({ min: 0, max: 3 }),
        async (d, perModel, without) => {
          const models = perModel.length + without;
          const expected = evaluateBalanced(d.formula, perModel, models);
          const [n, den, m] = formulaParts(d.formula) as [string, string, string];
          const metric = declaredMetric(d.entry, d.column);
          const parts = {
            [n]: perModel.map((x) => x.numerator),
            [den]: perModel.map((x) => x.denominator),
            [m]: models,
          };
          expect(metric.value(parts), `${d.column} in JS`).toBe(expected);
          const rows = join(
            perModel.map(
              (x) => sql`SELECT CAST(${x.numerator} AS BIGINT) AS num, CAST(${x.denominator} AS BIGINT) AS den`,
            ),
            ' UNION ALL ',
          );
          const query = sql`SELECT ${metric.sql({ [n]: sql`num`, [den]: sql`den`, [m]: sql`CAST(${models} AS BIGINT)` })} AS v FROM (${rows}) AS shares`;
          for (const engine of [duck, chdb]) {
            const got = (await engine.core.backend.read(query)).columns.v![0];
            expect(
              Number(got),
              `${d.column} ${JSON.stringify(perModel)} on ${engine === duck ? 'DuckDB' : 'chdb'}`,
            ).toBe(expected);
          }
        },
      ),
      { numRuns: Number(process.env.AEA_PROPERTY_RUNS ?? 60) },
    );
  }, 120_000);

  it('is each the one some report computes', () => {
    const source = srcFiles(new URL('../src/reports', import.meta.url).pathname)
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const named = (d: (typeof everyDeclared)[number]) =>
      new RegExp(`declaredMetric\\(\\s*'${escaped(d.entry)}',\\s*('${escaped(d.column)}'|m),?\\s*\\)`);
    const unused = everyDeclared.filter((d) => !named(d).test(source));
    expect(unused.map((d) => `${d.entry}: ${d.column}`)).toEqual([]);
  });
});
