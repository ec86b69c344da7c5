import { cp, open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { ValidationError } from '../src/errors.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { openEngine } from '../src/open-engine.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { aeaInProcess } from './helpers/cli.ts';
import { sampleIds } from './helpers/sample-org.ts';
import { post, startServer, type TestServer } from './helpers/server.ts';
import { tempDir } from './helpers/tmp.ts';
import { ids } from './fixtures/insights.ts';
import { domains, tabularFixture } from './fixtures/tabular.ts';

type Json = Record<string, any>;

const fixture = tabularFixture();
const window = { category_id: ids.cat1, start_date: '2026-03-01', end_date: '2026-11-30' };
const v1Window = { category_id: ids.cat1, start_date: '2026-03-01', end_date: '2026-12-01' };

/** One request of every report family: v2 page and stream, v1 tabular page and stream, traffic, raw answers. */
const requests: [string, Json][] = [
  ['visibility', { ...window, group_by: ['date'], interval: 'month', limit: 5 }],
  ['visibilityStream', { ...window, group_by: ['model'] }],
  ['citations', { ...window, limit: 5 }],
  [
    'visibilityV1',
    { ...v1Window, metrics: ['visibility_score', 'executions'], dimensions: ['model', 'date'], date_interval: 'month' },
  ],
  ['citationsV1Stream', { ...v1Window, metrics: ['count'], dimensions: ['hostname'] }],
  [
    'referrals',
    {
      domain: domains.own,
      start_date: '2026-02-01',
      end_date: '2026-12-01',
      metrics: ['visits'],
      dimensions: ['date'],
      date_interval: 'month',
    },
  ],
  ['promptAnswersV1', { ...v1Window, pagination: { limit: 3, offset: 0 } }],
];

/** A report's answer through the library: a page, or a stream's events. */
async function answer(
  engine: Engine,
  name: string,
  body: Json,
  options: Json = {},
): Promise<{ head: Json; rows: Json[] }> {
  const org = engine.org(ids.org1);
  if (!name.endsWith('Stream')) {
    const page = (await org.report(name)(body, options)) as Json;
    return { head: page.info ?? page, rows: page.data ?? [] };
  }
  const events: Json[] = [];
  for await (const e of org.stream(name.replace(/Stream$/, ''))(body, options)) events.push(e.data);
  return { head: events[0]!, rows: events.slice(1) };
}

const fingerprintOf = async (engine: Engine, name: string, body: Json) =>
  (await answer(engine, name, body)).head.fingerprint as string;

let engine: Engine;
beforeAll(async () => {
  engine = await openFixture(fixture, { cursorSecret: 'extensions' });
});
afterAll(() => engine.close());

describe('fingerprint', () => {
  it.each(requests)('%s carries one in its head, the same for the same request', async (name, body) => {
    const first = await answer(engine, name, body);
    expect(first.head.fingerprint).toMatch(/^[\w-]{22}$/);
    expect(JSON.stringify(await answer(engine, name, body))).toBe(JSON.stringify(first));
  });

  it('changes with the request, its format and the organization’s view, not with key order or a rollup being built', async () => {
    const body = requests[0]![1];
    const fp = await fingerprintOf(engine, 'visibility', body);
    expect(await fingerprintOf(engine, 'visibility', Object.fromEntries(Object.entries(body).reverse()))).toBe(fp);
    expect(await fingerprintOf(engine, 'visibility', { ...body, limit: 4 })).not.toBe(fp);
    expect(await fingerprintOf(engine, 'visibility', { ...body, interval: 'week' })).not.toBe(fp);
    const arrowHead = (await engine.org(ids.org1).report('visibility')(body, { format: 'arrow' })).schema.metadata.get(
      'aea:head',
    )!;
    expect(JSON.parse(arrowHead).fingerprint).not.toBe(fp);
    const withoutRollups = await openFixture(fixture, { cursorSecret: 'extensions', rollups: false });
    try {
      expect(JSON.stringify(await answer(withoutRollups, 'visibility', body))).toBe(
        JSON.stringify(await answer(engine, 'visibility', body)),
      );
    } finally {
      await withoutRollups.close();
    }
  });

  it('is the same over the same rows stored in another order, and changes when a row changes', async () => {
    const reordered = await openFixture(
      { ...fixture, executions: [...fixture.executions!].reverse(), mentions: [...fixture.mentions!].reverse() },
      { cursorSecret: 'extensions' },
    );
    const changed = await openFixture(
      { ...fixture, mentions: fixture.mentions!.slice(1) },
      { cursorSecret: 'extensions' },
    );
    try {
      for (const [name, body] of requests) {
        const a = await answer(engine, name, body);
        expect(JSON.stringify(await answer(reordered, name, body)), name).toBe(JSON.stringify(a));
        expect((await answer(changed, name, body)).head.fingerprint, name).not.toBe(a.head.fingerprint);
      }
    } finally {
      await Promise.all([reordered.close(), changed.close()]);
    }
  });
});

describe('explain', () => {
  it.each(requests)('%s: the request, plan, SQL, rollups and DuckDB’s plan', async (name, body) => {
    const explained = (await answer(engine, name, body, { explain: true })).head;
    const e = explained.explain;
    expect(e.request).toMatchObject(body);
    expect(e.plan).toBeTypeOf('object');
    expect(e.rollups.reason).toBeTypeOf('string');
    expect(e.statements.length).toBeGreaterThan(0);
    for (const s of e.statements) {
      expect(s.sql).toMatch(/SELECT/);
      expect(s.explain).toMatch(/PROJECTION|ORDER|UNION|AGGREGATE|SCAN/);
    }
    expect(e.answer_fingerprint).toBe((await answer(engine, name, body)).head.fingerprint);
    expect(explained.fingerprint).not.toBe(e.answer_fingerprint);
  });

  it('gives the rollups’ reason for the engine’s rollup mode: built on use, read stored only, or off', async () => {
    const body = requests[0]![1];
    // Fresh engines that explain only: explain starts no build, so no rollup is current in any of them.
    const engines = await Promise.all(
      [true, 'stored', false].map((rollups) =>
        openFixture(fixture, { cursorSecret: 'extensions', rollups: rollups as boolean | 'stored' }),
      ),
    );
    try {
      const [built, stored, off] = await Promise.all(
        engines.map(async (e) => (await answer(e, 'visibility', body, { explain: true })).head.explain.rollups),
      );
      expect(built.candidates.length).toBeGreaterThan(0);
      expect(built.chosen).toEqual([]);
      for (const r of [stored, off]) expect(r.candidates).toEqual(built.candidates);
      expect(built.reason).toMatch(/ not built for the current prompts yet \(a plain request starts the build/);
      expect(stored.reason).toMatch(/ not stored for the current prompts and dataset \(this engine reads stored/);
      expect(off.reason).toMatch(
        /, but rollups are off for this engine \(`rollups: false`\): the SQL reads the facts$/,
      );
    } finally {
      await Promise.all(engines.map((e) => e.close()));
    }
  });

  it('its SQL, run by hand, gives the report’s answer', async () => {
    const body = requests[0]![1];
    const page = (await engine.org(ids.org1).report('visibility')(body)) as Json;
    // A lean page: the answers per group and the mentions per group and brand, ranked and cut in JS.
    const [answers, mentions] = ((await engine.org(ids.org1).report('visibility')(body, { explain: true })) as Json)
      .explain.statements;
    const run = (text: string, params: unknown) =>
      engine.core.pool.use(async (conn) => (await conn.runAndReadAll(text, params as never)).getRowObjectsJS());
    // One statement of two queries: each named by its place.
    expect([answers.role, mentions.role]).toEqual([
      'page (lean: then ranked and cut in JS) (1 of 2)',
      'page (lean: then ranked and cut in JS) (2 of 2)',
    ]);
    const perMonth = await run(
      `SELECT strftime(k_date, '%Y-%m-%d') AS d, sum(n) AS n FROM (${answers.sql}) GROUP BY ALL`,
      answers.params,
    );
    const perBrand = await run(
      `SELECT strftime(m.k_date, '%Y-%m-%d') AS d, a.name, m.mentions FROM (${mentions.sql}) m JOIN assets a ON a.id = m.asset_id`,
      mentions.params,
    );
    expect(page.data.length).toBe(5);
    for (const r of page.data as Json[]) {
      const n = Number(perMonth.find((x) => x.d === r.date)!.n);
      const m = Number(perBrand.find((x) => x.d === r.date && x.name === r.asset.name)?.mentions ?? 0);
      expect(r.visibility_score, `${r.date} ${r.asset.name}`).toBe(m / n);
    }

    const v1Body = requests[3]![1];
    const v1 = (await engine.org(ids.org1).report('visibilityV1')(v1Body)) as Json;
    const v1Statement = ((await engine.org(ids.org1).report('visibilityV1')(v1Body, { explain: true })) as Json).explain
      .statements[0];
    const v1Rows = await engine.core.pool.use(async (conn) =>
      (await conn.runAndReadAll(v1Statement.sql, v1Statement.params)).getRowObjectsJS(),
    );
    // A lean v1 page: one top-N statement whose rows are the page's, the total beside each.
    expect(v1Statement.role).toBe('page (lean: one top-N statement)');
    expect(v1Rows[0]!.head_total).toBe(BigInt(v1.info.total_rows));
    expect(v1Rows.map((r) => ({ metrics: [r.out_m0, Number(r.out_m1)], dimensions: [r.out_d0, r.out_d1] }))).toEqual(
      v1.data,
    );
  });

  it('refuses a bad value and a table format, naming the query parameter', async () => {
    const body = requests[0]![1];
    const refused = (options: Json) =>
      engine
        .org(ids.org1)
        .report('visibility')(body, options as never)
        .then(
          () => null,
          (e: unknown) => (e instanceof ValidationError ? e.body().detail : e),
        );
    expect(await refused({ explain: 'maybe' })).toMatchObject([{ loc: ['query', 'explain'] }]);
    expect(await refused({ explain: true, format: 'csv' })).toEqual([
      {
        type: 'value_error',
        loc: ['query', 'explain'],
        msg: 'Value error, explain answers JSON only; ask for application/json (got the csv format)',
        input: 'true',
        ctx: { error: 'explain answers JSON only; ask for application/json (got the csv format)' },
      },
    ]);
  });
});

describe('on a dataset folder', () => {
  let dir: string;
  let folder: Engine;
  let sample: Awaited<ReturnType<typeof sampleIds>>;
  let server: TestServer;
  let key: string;
  const body = () =>
    ({
      category_id: sample.category,
      start_date: '2026-01-01',
      end_date: '2026-10-31',
      scope: 'all',
      limit: 5,
    }) as const;
  beforeAll(async () => {
    dir = join(await tempDir('aea-ext-'), 'data');
    await cp(sampleDir, dir, { recursive: true, dereference: true });
    folder = await openEngine({ data: dir, rollups: false, threads: 1, connections: 2 });
    sample = await sampleIds(folder);
    server = await startServer(folder, { rateLimit: false } as never);
    key = await server.key(sample.org);
  });
  afterAll(async () => {
    await server?.close();
    await folder?.close();
  });

  it('HTTP sends the fingerprint as the ETag and answers If-None-Match with a 304', async () => {
    const first = await post(`${server.url}/v2/reports/visibility`, body(), { 'x-api-key': key });
    const json = (await first.json()) as Json;
    expect(first.headers.get('etag')).toBe(`"${json.info.fingerprint}"`);
    const again = await post(`${server.url}/v2/reports/visibility`, body(), {
      'x-api-key': key,
      'if-none-match': first.headers.get('etag')!,
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const other = await post(
      `${server.url}/v2/reports/visibility`,
      { ...body(), limit: 4 },
      { 'x-api-key': key, 'if-none-match': first.headers.get('etag')! },
    );
    expect(other.status).toBe(200);
    const csv = await post(`${server.url}/v2/reports/visibility`, body(), { 'x-api-key': key, accept: 'text/csv' });
    expect(csv.headers.get('etag')).not.toBe(first.headers.get('etag'));
    const stream = await post(`${server.url}/v2/reports/visibility/stream`, body(), {
      'x-api-key': key,
      'if-none-match': '*',
    });
    expect(stream.status).toBe(304);
  });

  it('HTTP takes ?explain=true and refuses a bad value with a 422 at ["query", "explain"]', async () => {
    const explained = await post(`${server.url}/v2/reports/visibility?explain=true`, body(), { 'x-api-key': key });
    expect(explained.status).toBe(200);
    const e = (await explained.json()) as Json;
    expect(e.explain.statements[0].sql).toMatch(/SELECT/);
    expect(e.explain.operation).toBe('POST /v2/reports/visibility');
    expect(explained.headers.get('etag')).toBe(`"${e.fingerprint}"`);
    const unchanged = await post(`${server.url}/v2/reports/visibility?explain=true`, body(), {
      'x-api-key': key,
      'if-none-match': explained.headers.get('etag')!,
    });
    expect([unchanged.status, await unchanged.text()]).toEqual([304, '']);
    const other = await post(
      `${server.url}/v2/reports/visibility?explain=true`,
      { ...body(), limit: 4 },
      { 'x-api-key': key },
    );
    expect(((await other.json()) as Json).fingerprint).not.toBe(e.fingerprint);
    // The answer's fingerprint in explain is the one its answer is sent with, extensions included.
    const compared = await post(`${server.url}/v2/reports/visibility?compare=previous_period`, body(), {
      'x-api-key': key,
    });
    const explainedCompare = await post(
      `${server.url}/v2/reports/visibility?compare=previous_period&explain=true`,
      body(),
      {
        'x-api-key': key,
      },
    );
    expect(`"${((await explainedCompare.json()) as Json).explain.answer_fingerprint}"`).toBe(
      compared.headers.get('etag'),
    );
    expect(compared.headers.get('etag')).not.toBe(explained.headers.get('etag'));
    const bad = await post(`${server.url}/v2/reports/visibility?explain=perhaps`, body(), { 'x-api-key': key });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as Json).detail[0].loc).toEqual(['query', 'explain']);
    const unknown = await post(`${server.url}/v2/reports/visibility?explian=true`, body(), { 'x-api-key': key });
    expect(unknown.status).toBe(422);
    expect(((await unknown.json()) as Json).detail[0]).toMatchObject({
      type: 'extra_forbidden',
      loc: ['query', 'explian'],
    });
    const { scope: _scope, limit: _limit, ...window } = body();
    const notHere = await post(`${server.url}/v2/prompts/answers?compare=previous_period`, window, {
      'x-api-key': key,
    });
    expect(notHere.status).toBe(422);
    expect(((await notHere.json()) as Json).detail[0]).toMatchObject({
      loc: ['query', 'compare'],
      msg: expect.stringContaining('does not apply'),
    });
    const noDate = await post(`${server.url}/v2/reports/visibility?fill=zero`, body(), { 'x-api-key': key });
    expect(noDate.status).toBe(422);
    expect(((await noDate.json()) as Json).detail[0]).toMatchObject({
      loc: ['query', 'fill'],
      msg: expect.stringContaining('date'),
    });
    const csv = await post(`${server.url}/v2/reports/visibility?explain=true`, body(), {
      'x-api-key': key,
      accept: 'text/csv',
    });
    expect(csv.status).toBe(422);
  });

  it('the CLI takes --explain and prints the same explain', async () => {
    const out = await aeaInProcess([
      'query',
      '/v2/reports/visibility',
      '--data',
      dir,
      '--org',
      sample.org,
      '--body',
      JSON.stringify(body()),
      '--explain',
      '--state',
      join(dir, '..', 'cli.state.duckdb'),
    ]);
    expect(out.code).toBe(0);
    const printed = JSON.parse(out.stdout) as Json;
    expect(printed.explain.request).toEqual(body());
    expect(printed.explain.statements[0].sql).toBe(
      ((await folder.org(sample.org).reports.visibility(body(), { explain: true })) as Json).explain.statements[0].sql,
    );
  });

  it('fill, compare and components answer the same through HTTP, the CLI and the library', async () => {
    const v1 = {
      category_id: sample.category,
      start_date: '2026-08-01',
      end_date: '2026-10-01',
      metrics: ['visibility_score', 'executions'],
      dimensions: ['model', 'date'],
      date_interval: 'week',
    };
    const v2 = {
      category_id: sample.category,
      start_date: '2026-08-01',
      end_date: '2026-10-01',
      group_by: ['date'],
      interval: 'week',
    };
    const cases: [string, string, Json, Json, string[]][] = [
      ['/v1/reports/visibility', 'fill=zero', v1, { fill: 'zero' }, ['--fill', 'zero']],
      [
        '/v1/reports/visibility',
        'compare=previous_period',
        v1,
        { compare: 'previous_period' },
        ['--compare', 'previous_period'],
      ],
      ['/v1/reports/visibility', 'components=true', v1, { components: true }, ['--components']],
      [
        '/v1/reports/visibility',
        'fill=zero&compare=previous_year&components=true',
        v1,
        { fill: 'zero', compare: 'previous_year', components: true },
        ['--fill', 'zero', '--compare', 'previous_year', '--components'],
      ],
      [
        '/v2/reports/query-fanouts',
        'fill=zero&compare=previous_period&components=true',
        { ...v2, group_by: ['date', 'model'], metrics: ['total_fanouts', 'fanouts_per_execution'] },
        { fill: 'zero', compare: 'previous_period', components: true },
        ['--fill', 'zero', '--compare', 'previous_period', '--components'],
      ],
      [
        '/v2/reports/citations',
        'compare=2026-06-01..2026-07-31',
        v2,
        { compare: '2026-06-01..2026-07-31' },
        ['--compare', '2026-06-01..2026-07-31'],
      ],
    ];
    const names: Json = {
      '/v1/reports/visibility': 'visibilityV1',
      '/v2/reports/query-fanouts': 'queryFanouts',
      '/v2/reports/citations': 'citations',
    };
    for (const [path, query, request, options, flags] of cases) {
      const library = JSON.stringify(await folder.org(sample.org).report(names[path])(request, options));
      const http = await post(`${server.url}${path}?${query}`, request, { 'x-api-key': key });
      expect(http.status, query).toBe(200);
      expect(await http.text(), query).toBe(library);
      const cli = await aeaInProcess([
        'query',
        path,
        '--data',
        dir,
        '--org',
        sample.org,
        '--body',
        JSON.stringify(request),
        ...flags,
        '--state',
        join(dir, '..', 'cli.state.duckdb'),
      ]);
      expect(cli.code, cli.stdout).toBe(0);
      // A v2 page's cursor and fingerprint name the key the cursor is signed with, which is the CLI's own.
      const unkeyed = (text: string) =>
        path.startsWith('/v2/')
          ? JSON.stringify({
              ...JSON.parse(text),
              info: { ...JSON.parse(text).info, fingerprint: null, next_cursor: null },
            })
          : text;
      expect(unkeyed(cli.stdout.trim()), query).toBe(unkeyed(library));
      expect(JSON.parse(library).data.length, `${path}?${query}`).toBeGreaterThan(0);
    }
  });

  it('a prompt edit changes the fingerprint', async () => {
    const before = (await folder.org(sample.org).reports.visibility(body())) as Json;
    const [prompt] = (
      await folder
        .org(sample.org)
        .resources.prompts({ params: { category_id: sample.category }, query: { limit: '1' } })
    ).data as Json[];
    const edit = (topic: string) =>
      folder.org(sample.org).resources.updatePrompts({
        params: { category_id: sample.category },
        body: { prompts: [{ id: prompt!.id, topic }] },
      });
    expect(((await folder.org(sample.org).reports.visibility(body())) as Json).info.fingerprint).toBe(
      before.info.fingerprint,
    );
    await edit('Moved by the fingerprint test');
    const after = (await folder.org(sample.org).reports.visibility(body())) as Json;
    expect(after.info.fingerprint).not.toBe(before.info.fingerprint);
  });

  it('explain reads no fact data: it answers when the fact files’ pages are unreadable, and the report does not', async () => {
    for (const table of ['executions', 'mentions']) {
      const tableDir = join(dir, table);
      const files = (await stat(tableDir).catch(() => null))?.isDirectory()
        ? (await readdir(tableDir)).map((f) => join(tableDir, f))
        : [join(dir, `${table}.parquet`)];
      for (const file of files) {
        const { size } = await stat(file);
        const handle = await open(file, 'r+');
        const tail = Buffer.alloc(8);
        await handle.read(tail, 0, 8, size - 8);
        // TRICKY: the footer (its length is in the last 8 bytes) stays intact, so the files still plan; every data page before it is garbage.
        const footer = tail.readUInt32LE(0) + 8;
        await handle.write(Buffer.alloc(size - footer - 4, 0xa5), 0, undefined, 4);
        await handle.close();
      }
    }
    const request = { ...body(), filter: { field: 'model', op: 'is', value: 'never seen before' } };
    const explained = (await folder.org(sample.org).reports.visibility(request, { explain: true })) as Json;
    expect(explained.explain.statements[0].explain).toMatch(/SCAN|READ_PARQUET|PARQUET/i);
    await expect(folder.org(sample.org).reports.visibility(request)).rejects.toThrow();
  });
});
