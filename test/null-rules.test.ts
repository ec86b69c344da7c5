import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import type { Engine } from '../src/library/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { sampleScopes, type Scopes } from './helpers/every-report.ts';
import { aeaInProcess } from './helpers/cli.ts';
import { tempDir } from './helpers/tmp.ts';

/**
 * Every statement of a NULL rule in docs/ carries `<!-- null-rule: ID -->`, and every ID is exercised
 * by a test that names it (`null-rule: ID` beside its assertion). A line that reads like a NULL rule
 * without a tag fails, so a new rule cannot be written without its test.
 */
const docsDir = join(import.meta.dirname, '..', 'docs');
const testDir = import.meta.dirname;

/** Lines that read like a rule of what is null (or `''`) in an answer. */
const ruleLike =
  /`null`|`NULL`|`''`|\bnull (when|for|where|if|in|there|until|ratios)\b|\bNULL (when|for|where|if|in|there|metrics|and)\b|\b(is|are|gives|give|becomes|stays?|shows?|writes?|keeps?|returns?|answers?|leaves?|get|gets|be|with|and|a|as) (null|NULL)\b/;

/** Lines that mention NULL without stating a rule of the answers, each with why. */
const notRules: { file: string; pattern: RegExp; why: string }[] = [
  {
    file: 'data-model.md',
    pattern: /^\| \w+ \| [A-Z]+(\[\])? \| yes \|/,
    why: 'a column of the data contract: what an input row may hold, checked by aea check (test/check.test.ts)',
  },
  {
    file: 'scale-out.md',
    pattern: /CAST\(NULL AS|join_use_nulls|aggregate_functions_null_for_empty|NULL, `''` and DST edges/,
    why: 'how the ClickHouse dialect is set up so that answers agree, proven by the backend-agreement tests',
  },
];

function docLines(): { file: string; n: number; text: string }[] {
  return readdirSync(docsDir)
    .filter((f) => f.endsWith('.md'))
    .flatMap((file) =>
      readFileSync(join(docsDir, file), 'utf8')
        .split('\n')
        .map((text, i) => ({ file, n: i + 1, text })),
    );
}

const tagsOf = (text: string) => [...text.matchAll(/<!-- null-rule: ([a-z0-9-]+) -->/g)].map((m) => m[1]!);

describe('NULL rules in docs/', () => {
  it('every line stating a NULL rule is tagged, and every tag is exercised by a test that names it', () => {
    const lines = docLines();
    const untagged = lines.filter(
      (l) =>
        ruleLike.test(l.text) &&
        tagsOf(l.text).length === 0 &&
        !notRules.some((x) => x.file === l.file && x.pattern.test(l.text)),
    );
    expect(untagged.map((l) => `${l.file}:${l.n}: ${l.text.slice(0, 120)}`)).toEqual([]);
    const ids = new Set(lines.flatMap((l) => tagsOf(l.text)));
    expect(ids.size).toBeGreaterThan(10);
    const tests = readdirSync(testDir)
      .filter((f) => f.endsWith('.test.ts') && f !== 'null-rules.test.ts')
      .map((f) => readFileSync(join(testDir, f), 'utf8'))
      .concat(
        ((own: string) => own.slice(own.lastIndexOf('/** Rules exercised here. */')))(
          readFileSync(join(testDir, 'null-rules.test.ts'), 'utf8'),
        ),
      );
    const exercised = new Set(tests.flatMap((t) => [...t.matchAll(/null-rule: ([a-z0-9-]+)/g)].map((m) => m[1]!)));
    expect([...ids].filter((id) => !exercised.has(id))).toEqual([]);
    expect(
      [...exercised].filter((id) => !ids.has(id)),
      'a test names a rule the docs no longer state',
    ).toEqual([]);
  });
});

/** Rules exercised here. */
let engine: Engine;
let scopes: Scopes;
beforeAll(async () => {
  engine = await openEngine({ data: sampleDir });
  scopes = await sampleScopes(engine);
}, 120_000);
afterAll(() => engine?.close());

const count = async (sql: string) =>
  Number((await engine.core.pool.use((c) => c.runAndReadAll(sql))).getRowsJS()[0]![0]);

describe('NULL rules without a test elsewhere', () => {
  it('v2: a missing persona is a null reference; v1: a missing persona is the empty string', async () => {
    const { org, category } = scopes.insights;
    const without = await count(
      `SELECT count(*) FROM executions WHERE category_id = '${category}' AND persona_id IS NULL AND day BETWEEN '2026-01-01' AND '2026-06-30'`,
    );
    expect(without, 'the sample has answers without a persona').toBeGreaterThan(0);
    // null-rule: v2-missing-ref-null
    const v2 = (await engine.org(org).report('visibility')({
      category_id: category,
      start_date: '2026-01-01',
      end_date: '2026-06-30',
      group_by: ['persona'],
    })) as { data: { persona: unknown }[] };
    expect(v2.data.some((r) => r.persona === null)).toBe(true);
    // null-rule: v1-missing-dimension-empty
    const v1 = (await engine.org(org).report('visibilityV1')({
      category_id: category,
      start_date: '2026-01-01',
      end_date: '2026-07-01',
      metrics: ['executions'],
      dimensions: ['persona'],
    })) as { data: { dimensions: unknown[] }[] };
    expect(v1.data.some((r) => r.dimensions[0] === '')).toBe(true);
    expect(v1.data.some((r) => r.dimensions[0] === null)).toBe(false);
  });

  it('a persona profile text the dataset lacks is null', async () => {
    const { org, category } = scopes.insights;
    const lacking = await count(
      `SELECT count(*) FROM personas WHERE category_id = '${category}' AND (pain_points IS NULL OR motivations IS NULL)`,
    );
    const listed = (await engine.org(org).resources.categoryPersonas!({ params: { category_id: category } })) as {
      data: { persona: { behavior: { painPoints: unknown; motivations: unknown } } }[];
    };
    // null-rule: persona-profile-null
    expect(lacking, 'the sample has a persona without a profile text').toBeGreaterThan(0);
    expect(
      listed.data.filter((p) => p.persona.behavior.painPoints === null || p.persona.behavior.motivations === null),
    ).toHaveLength(lacking);
  });

  it('fanouts_per_execution is null where the group has no searching execution; a null ratio sorts last both ways; the table shows NULL', async () => {
    const { org, category } = scopes.insights;
    const body = {
      category_id: category,
      start_date: '2026-01-01',
      end_date: '2026-01-14',
      group_by: ['prompt', 'date'],
      interval: 'day',
      metrics: ['total_fanouts', 'fanouts_per_execution'],
    };
    const rows: { total_fanouts: number; fanouts_per_execution: number | null }[] = [];
    for await (const e of engine.org(org).stream('queryFanouts')(body, { fill: 'zero' }) as AsyncIterable<{
      event: string;
      data: Record<string, unknown>;
    }>)
      if (e.event === 'result') rows.push(e.data as (typeof rows)[number]);
    const empty = rows.filter((r) => r.total_fanouts === 0);
    expect(empty.length, 'the window has prompt-days without fan-outs').toBeGreaterThan(0);
    // null-rule: fanouts-per-execution-none
    expect(empty.every((r) => r.fanouts_per_execution === null)).toBe(true);
    const v1Body = {
      category_id: category,
      start_date: '2026-01-01',
      end_date: '2026-01-15',
      metrics: ['fanouts_per_execution'],
      dimensions: ['prompt', 'date'],
    };
    for (const dir of ['asc', 'desc'] as const) {
      const v1 = (await engine.org(org).report('queryFanoutsV1')(
        { ...v1Body, order_by: { fanouts_per_execution: dir } },
        { fill: 'zero' },
      )) as { data: { metrics: (number | null)[] }[] };
      const values = v1.data.map((r) => r.metrics[0]);
      const firstNull = values.indexOf(null);
      expect(firstNull, dir).toBeGreaterThan(0);
      // null-rule: null-sorts-last
      expect(
        values.slice(firstNull).every((v) => v === null),
        dir,
      ).toBe(true);
    }
    const state = join(await tempDir('aea-null-rules-'), 'state.duckdb');
    const table = await aeaInProcess([
      'query',
      '/v1/reports/query-fanouts?fill=zero',
      '--data',
      sampleDir,
      '--org',
      org,
      '--state',
      state,
      '--body',
      JSON.stringify(v1Body),
      '--format',
      'table',
    ]);
    expect(table.code).toBe(0);
    // null-rule: table-null-shown
    expect(table.stdout).toMatch(/│ NULL +│/);
  });
});
