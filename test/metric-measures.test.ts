import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join as joinPath } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleDir } from '../src/generate/sample.ts';
import { openApiDocument } from '../src/http/openapi.ts';
import type { Engine } from '../src/library/engine.ts';
import { measureText } from '../src/model/metric-formula.ts';
import { metrics } from '../src/model/metrics.ts';
import { openEngine } from '../src/open-engine.ts';
import { declaredInstant, declaredRank } from '../src/query/measure-sql.ts';
import { ident, join, render, sql } from '../src/query/sql.ts';
import { endpoints } from '../src/registry.ts';
import { everyReportCases, page, sampleScopes } from './helpers/every-report.ts';
import { memoryDuckDb } from './helpers/memory-duckdb.ts';
import { expectNotVacuous } from './helpers/not-vacuous.ts';

/**
 * Every metric column a report answers is declared in src/model/metrics.ts, as a derived formula or as a
 * measure (a count, an instant, a rank, an attribute), and the ranks and instants the reports compute are
 * written from their declarations by src/query/measure-sql.ts.
 */
/**
 * The report family a path answers, as the declarations' `reports` name it: a column counts as declared
 * for a path only where a declaration of that family defines it, so a new report's `count` is not taken
 * for another's.
 */
const families: readonly (readonly [RegExp, string])[] = [
  [/\/logs\/raw/, 'raw logs'],
  [/\/bots/, 'bots'],
  [/\/referrals/, 'referrals'],
  [/\/shopping\//, 'shopping'],
  [/\/channels/, 'channels'],
  [/\/videos/, 'videos'],
  [/\/factcheck\/claims/, 'fact-check claims'],
  [/\/factcheck/, 'fact-check'],
  [/\/citations/, 'citations'],
  [/\/sentiment/, 'sentiment'],
  [/\/query-fanouts/, 'query-fanouts'],
  [/answers/, 'prompt answers'],
  [/\/visibility/, 'visibility'],
];
const familyOf = (path: string): string => {
  const family = families.find(([pattern]) => pattern.test(path))?.[1];
  if (!family) throw new Error(`no report family for ${path}`);
  return family;
};
/** The columns of `path`'s rows that no declaration of its family defines. */
const undeclared = (path: string, columns: Iterable<string>): string[] => {
  const family = familyOf(path);
  const declared = new Set(
    metrics
      .filter((m) => m.reports.includes(family))
      .flatMap((m) => [...Object.keys(m.formulas ?? {}), ...Object.keys(m.measures ?? {})]),
  );
  return [...columns].filter((c) => !declared.has(c)).map((c) => `${path}: ${c}`);
};
const measures = metrics.flatMap((m) =>
  Object.entries(m.measures ?? {}).map(([column, measure]) => ({ entry: m.name, column, measure })),
);

/** Every enum value under a `metrics` property of the document: the metrics each report can be asked for. */
function askable(node: unknown, found = new Set<string>(), inMetrics = false): Set<string> {
  if (Array.isArray(node)) for (const x of node) askable(x, found, inMetrics);
  else if (node && typeof node === 'object')
    for (const [key, value] of Object.entries(node)) {
      if (inMetrics && key === 'enum' && Array.isArray(value)) for (const v of value) found.add(String(v));
      askable(value, found, inMetrics || key === 'metrics');
    }
  return found;
}

/** The names of the numeric fields of a page's rows, at any depth (`claims[].models[].occurrence` gives `occurrence`). */
function numericFields(node: unknown, found: Set<string>, key = ''): void {
  if (Array.isArray(node)) for (const x of node) numericFields(x, found, key);
  else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) numericFields(v, found, k);
  else if (typeof node === 'number' && key !== '' && key !== 'metrics') found.add(key);
}

let engine: Engine;
beforeAll(async () => {
  engine = await openEngine({ data: sampleDir, rollups: false });
}, 60_000);
afterAll(async () => {
  await engine?.close();
});

describe('metric declarations', () => {
  it('declare every metric a request can ask for, in the declarations of its report', () => {
    const paths = Object.entries(openApiDocument(endpoints, { version: 'test' }).paths as Record<string, unknown>);
    const asked = paths.map(([path, operations]) => [path, askable(operations)] as const).filter(([, m]) => m.size > 0);
    expect(new Set(asked.flatMap(([, m]) => [...m])).size).toBeGreaterThan(20);
    expect(asked.flatMap(([path, m]) => undeclared(path, m))).toEqual([]);
  });

  it('declare every numeric field of every report path’s rows over the sample, and every metric a v1 answer names, in the declarations of its report', async () => {
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const c of everyReportCases(await sampleScopes(engine))) {
      const answer = (await page(engine, c)) as { info: { query?: { metrics?: string[] } }; data: unknown };
      const fields = new Set<string>(answer.info.query?.metrics ?? []);
      numericFields(answer.data, fields);
      for (const f of fields) seen.add(f);
      problems.push(...undeclared(c.path, fields));
    }
    expect(seen).toContain('rank');
    expect(seen).toContain('visibility_rank');
    expect(problems).toEqual([]);
  }, 120_000);

  it('show each measure in the docs as declared', () => {
    expect(measureText({ count: 'citations' })).toBe('count: citations');
    expect(measureText({ latest: 'ts' })).toBe('max(ts)');
    expect(measureText(metrics.find((m) => m.name === 'rank (citations)')!.measures!.rank!)).toBe(
      '1-based place by count (largest first), then citation_share (largest first), then name (or URL)',
    );
    const doc = readFileSync(new URL('../docs/data-model.md', import.meta.url), 'utf8');
    for (const { column, measure } of measures) expect(doc).toContain(`\`${column}\` = ${measureText(measure)}`);
  });

  it('render instants and rank orders from the declaration, binding only what the report names', () => {
    expect(render(declaredInstant('last_visit', 'last_visit').sql({ ts: sql`last_at` })).text).toBe('max(last_at)');
    expect(render(declaredInstant('first_cited_at', 'first_cited_at').sql({ executed_at: sql`f` })).text).toBe(
      'min(f)',
    );
    const product = declaredRank('visibility_rank (product rank)', 'visibility_rank');
    expect(
      render(join(product.order({ visibility_score: sql`v`, average_position: sql`p` }, [sql`name`]), ', ')).text,
    ).toBe('v DESC, p ASC, name');
    const visibility = declaredRank('rank (visibility)', 'rank');
    expect(render(join(visibility.order({ 'the sort metric': sql`s` }, [], 'asc'), ', ')).text).toBe(
      's ASC NULLS LAST',
    );
    expect(() => visibility.order({ 'the sort metric': sql`s` }, [])).toThrow(/requested sort/);
    expect(() => product.order({ visibility_score: sql`v` }, [])).toThrow(/'average_position'/);
    expect(() => declaredRank('last_visit', 'last_visit')).toThrow(/no rank/);
    expect(() => declaredInstant('rank (fan-outs)', 'rank')).toThrow(/no instant/);
  });

  it('are each the one some report computes (every rank and instant)', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) =>
        statSync(joinPath(dir, name)).isDirectory() ? files(joinPath(dir, name)) : [joinPath(dir, name)],
      );
    const source = files(new URL('../src/reports', import.meta.url).pathname)
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const computed = measures.filter((m) => 'rank' in m.measure || 'earliest' in m.measure || 'latest' in m.measure);
    expect(computed.length).toBeGreaterThan(6);
    const unused = computed.filter(
      (m) =>
        !new RegExp(`declared(Rank|Instant)\\(\\s*'${escaped(m.entry)}',\\s*'${escaped(m.column)}',?\\s*\\)`).test(
          source,
        ),
    );
    expect(unused.map((m) => `${m.entry}: ${m.column}`)).toEqual([]);
  });
});

describe('a declared rank in JS', () => {
  const conn = memoryDuckDb();
  const ranks = measures.flatMap((m) => ('rank' in m.measure ? [{ ...m, keys: m.measure.rank }] : []));

  it('orders rows as DuckDB orders them by the declared ORDER BY, NULLs and ties included', async () => {
    const value = fc.option(fc.constantFrom(0, 0.5, 1, 2, -1, 1e-9), { nil: null });
    let orderedDifferently = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ranks),
        fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
        fc.array(fc.tuple(value, value), { minLength: 2, maxLength: 12 }),
        async (r, requested, rows) => {
          const rank = declaredRank(r.entry, r.column);
          const parts = Object.fromEntries(r.keys.map((k, i) => [k.by, ident(`k${i}`)]));
          const values = rows.map(
            (row, id) =>
              sql`(${id}, ${join(
                r.keys.map((_, i) => sql`CAST(${row[i] ?? null} AS DOUBLE)`),
                ', ',
              )})`,
          );
          const columns = join(
            r.keys.map((_, i) => ident(`k${i}`)),
            ', ',
          );
          const { text, params } = render(
            sql`SELECT id FROM (VALUES ${join(values, ', ')}) t(id, ${columns}) ORDER BY ${join(rank.order(parts, [sql`id`], requested), ', ')}`,
          );
          const inDuck = (await conn().runAndReadAll(text, params as never)).getRowsJS().map((x) => Number(x[0]));
          const keys = rank.compareKeys(requested);
          const inJs = rows
            .map((_, id) => id)
            .sort((a, b) => keys(rows[a]!.slice(0, r.keys.length), rows[b]!.slice(0, r.keys.length)) || a - b);
          if (inJs.some((id, i) => id !== i)) orderedDifferently++;
          expect(inJs).toEqual(inDuck);
        },
      ),
      { numRuns: Number(process.env.AEA_PROPERTY_RUNS ?? 60) },
    );
    expectNotVacuous(orderedDifferently, Number(process.env.AEA_PROPERTY_RUNS ?? 60), 0.91);
  }, 60_000);
});
