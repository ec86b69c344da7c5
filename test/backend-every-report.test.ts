import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import type { Engine } from '../src/library/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { endpoints } from '../src/registry.ts';
import {
  everyReportCases,
  filterCases,
  page,
  reportPaths,
  rowsOf,
  sampleScopes,
  stream,
  type Scopes,
} from './helpers/every-report.ts';
import { firstDifference } from './helpers/answers.ts';
import { aea } from './helpers/cli.ts';
import { tempDir } from './helpers/tmp.ts';
import { post, startServer } from './helpers/server.ts';

/**
 * Every report path of the registry, pages and streams, answered over the bundled sample (Parquet
 * folders, read in place by chdb) by DuckDB and by chdb: the same JSON. A few through `aea query
 * --backend chdb`, the same bytes as the default backend's.
 */
let duck: Engine;
let chdb: Engine;
let scopes: Scopes;
const cases = () => everyReportCases(scopes);

beforeAll(async () => {
  // One clock for both: a prompt edit stamps its time into the state, which the answers' fingerprints hash.
  const clock = () => new Date('2026-11-20T12:00:00Z');
  duck = await openEngine({ data: sampleDir, cursorSecret: 'every', rollups: false, clock });
  chdb = await openEngine({ data: sampleDir, cursorSecret: 'every', backend: 'chdb', clock });
  scopes = await sampleScopes(duck);
}, 120_000);
afterAll(async () => {
  await chdb?.close();
  await duck?.close();
});

const v2 = { start_date: '2026-01-01', end_date: '2026-06-30' };

describe('chdb answers every report path as DuckDB does', () => {
  it('covers every report path of the registry', () => {
    expect(new Set(cases().map((c) => c.path))).toEqual(new Set(reportPaths()));
  });

  it('pages and streams: the same JSON', async () => {
    const problems: string[] = [];
    for (const c of cases()) {
      const expected = (await page(duck, c)) as Record<string, unknown>;
      if (rowsOf(expected) === 0) problems.push(`${c.path}: no rows in the sample`);
      const pageDifference = firstDifference(await page(chdb, c), expected);
      if (pageDifference) problems.push(`${c.path} page differs at ${pageDifference}`);
      if (endpoints.some((e) => e.path === `${c.path}/stream`)) {
        const streamDifference = firstDifference(await stream(chdb, c), await stream(duck, c));
        if (streamDifference) problems.push(`${c.path} stream differs at ${streamDifference}`);
      }
    }
    expect(problems).toEqual([]);
  }, 600_000);

  it('filters on every report-specific field over the Parquet files (domain on the answers, analysis types on channels and videos, names beyond ASCII, …): the same JSON', async () => {
    const problems: string[] = [];
    let withRows = 0;
    for (const c of await filterCases(duck, scopes)) {
      const expected = (await page(duck, c)) as Record<string, unknown>;
      if (rowsOf(expected) > 0) withRows++;
      if (/[^\x00-\x7F]/.test(JSON.stringify(c.body)) && rowsOf(expected) === 0)
        problems.push(`${c.path} ${JSON.stringify(c.body)}: a name beyond ASCII found no rows`);
      const difference = firstDifference(
        await page(chdb, c).catch((error: Error) => `${error.constructor.name}: ${error.message}`),
        expected,
      );
      if (difference) problems.push(`${c.path} ${JSON.stringify(c.body.filter)} differs at ${difference}`);
    }
    expect(problems).toEqual([]);
    expect(withRows).toBeGreaterThan(9);
  }, 300_000);

  it('reads the state store: a prompt edit shows in the next chdb answer, as in DuckDB', async () => {
    const { org, category } = scopes.insights;
    const [prompt, tag] = (
      await duck.core.pool.use((c) =>
        c.runAndReadAll(`SELECT p.id, p.tag_ids, t.id, t.name FROM prompts p JOIN tags t ON t.category_id = p.category_id AND NOT list_contains(p.tag_ids, t.id)
          WHERE p.category_id = '${category}' AND list_contains(p.analysis_types, 'visibility') ORDER BY p.id, t.id LIMIT 1`),
      )
    )
      .getRowsJS()
      .map(
        (r) =>
          [
            { id: String(r[0]), tags: (r[1] as string[]).map(String) },
            { id: String(r[2]), name: String(r[3]) },
          ] as const,
      )[0]!;
    const body = {
      category_id: category,
      ...v2,
      scope: 'all',
      group_by: ['prompt'],
      filter: { field: 'tag', op: 'is', value: tag.name },
      limit: 50,
    } as const;
    const before = await chdb.org(org).reports.visibility(body);
    for (const engine of [duck, chdb])
      await engine.org(org).resources.updatePrompts({
        params: { category_id: category },
        body: { prompts: [{ id: prompt.id, tags: [...prompt.tags, tag.id] }] },
      });
    const after = await chdb.org(org).reports.visibility(body);
    expect(after).not.toEqual(before);
    expect(JSON.stringify(after)).toContain(prompt.id);
    expect(after).toEqual(await duck.org(org).reports.visibility(body));
  }, 120_000);

  it('the REST service over chdb sends what it sends over DuckDB: JSON, the SSE stream, CSV and Parquet', async () => {
    const c = cases().find((x) => x.path === '/v2/reports/citations')!;
    const servers = [await startServer(duck, { rateLimit: false }), await startServer(chdb, { rateLimit: false })];
    try {
      const bodies = await Promise.all(
        servers.map(async (s) => {
          const key = { 'x-api-key': await s.key(c.scope.org) };
          const json = await (await post(`${s.url}${c.path}`, c.body, key)).text();
          const { limit: _limit, ...streamBody } = c.body;
          const sse = await (await post(`${s.url}${c.path}/stream`, streamBody, key)).text();
          const csv = await (await post(`${s.url}${c.path}`, c.body, { ...key, accept: 'text/csv' })).text();
          const parquet = Buffer.from(
            await (
              await post(`${s.url}${c.path}`, c.body, { ...key, accept: 'application/vnd.apache.parquet' })
            ).arrayBuffer(),
          );
          return { json, sse, csv, parquet: parquet.toString('base64') };
        }),
      );
      expect(JSON.parse(bodies[0]!.json).data.length).toBeGreaterThan(0);
      expect(bodies[0]!.sse).toContain('event: result');
      expect(bodies[1]).toEqual(bodies[0]);
    } finally {
      for (const s of servers) await s.close();
    }
  }, 120_000);

  it('aea query --backend chdb prints the bytes the default backend prints', async () => {
    const dir = await tempDir('aea-every-');
    const picks = cases().filter((c) => ['/v2/reports/visibility', '/v1/reports/referrals'].includes(c.path));
    for (const c of picks) {
      const args = [
        'query',
        c.path,
        '--data',
        sampleDir,
        '--org',
        c.scope.org,
        '--body',
        JSON.stringify(c.body),
        '--state',
        `${dir}/state.duckdb`,
      ];
      const want = await aea(args);
      const got = await aea([...args, '--backend', 'chdb']);
      expect(want.code).toBe(0);
      expect(got.stderr).toBe('');
      expect(got.stdout).toBe(want.stdout);
    }
    const streamed = picks[0]!;
    const args = [
      'query',
      `${streamed.path}/stream`,
      '--data',
      sampleDir,
      '--org',
      streamed.scope.org,
      '--body',
      JSON.stringify({ ...streamed.body, limit: undefined }),
      '--state',
      `${dir}/state.duckdb`,
      '--format',
      'ndjson',
    ];
    const [want, got] = [await aea(args), await aea([...args, '--backend', 'chdb'])];
    expect(got.stdout.length).toBeGreaterThan(1000);
    expect(got.stdout).toBe(want.stdout);
  }, 300_000);
});
