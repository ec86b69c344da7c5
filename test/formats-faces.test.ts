import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { tableFromIPC } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run-cli.ts';
import { openEngine } from '../src/open-engine.ts';
import type { Engine } from '../src/library/engine.ts';
import { NotAcceptableError } from '../src/errors.ts';
import { rowsFor } from '../src/formats/encode.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { aeaBin, aeaInProcess } from './helpers/cli.ts';
import { post, startServer, type TestServer } from './helpers/server.ts';
import { tempDir } from './helpers/tmp.ts';

let engine: Engine;
let server: TestServer;
let key: string;
let org: string;
let category: string;
let dir: string;

beforeAll(async () => {
  engine = await openEngine({ data: sampleDir });
  const [first] = await engine.listOrganizations();
  org = first!.id;
  category = first!.categories[0]!.id;
  server = await startServer(engine, { rateLimit: false, streams: { perKey: 1, maxSeconds: 600 } });
  key = await server.key(org);
  dir = await tempDir('aea-formats-faces-');
});
afterAll(async () => {
  await server?.close();
  await engine?.close();
});

const visibility = () =>
  ({ category_id: category, start_date: '2026-10-01', end_date: '2026-10-31', scope: 'all', limit: 5 }) as const;
const big = () =>
  ({
    category_id: category,
    start_date: '2025-10-01',
    end_date: '2026-11-15',
    scope: 'all',
    group_by: ['prompt', 'date'],
  }) as const;

async function waitFor(check: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await sleep(20);
  }
}

describe('HTTP: Accept chooses the format', () => {
  it('answers 406 in the service’s error shape for a media type no format meets, with the rate headers', async () => {
    const limited = await startServer(engine);
    try {
      const r = await post(`${limited.url}/v2/reports/visibility`, visibility(), {
        'x-api-key': await limited.key(org),
        accept: 'application/xml',
      });
      expect(r.status).toBe(406);
      expect(r.headers.get('content-type')).toContain('application/json');
      expect(r.headers.get('x-ratelimit-remaining')).not.toBeNull();
      expect(await r.json()).toEqual({ detail: expect.stringContaining('text/csv'), code: 'not_acceptable' });
    } finally {
      await limited.close();
    }
  });

  it('keeps JSON for a missing Accept, */*, application/json, and a browser’s Accept', async () => {
    const bodies = new Set<string>();
    for (const accept of [
      undefined,
      '*/*',
      'application/json',
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    ]) {
      const r = await fetch(`${server.url}/v2/reports/visibility`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json', ...(accept ? { accept } : {}) },
        body: JSON.stringify(visibility()),
      });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
      bodies.add(await r.text());
    }
    expect(bodies.size).toBe(1);
  });

  it('refuses a table format on an operation without rows before it runs: nothing is created', async () => {
    const prompt = 'A prompt that a CSV request must not create';
    const path = `${server.url}/v1/org/categories/${category}/prompts`;
    const r = await post(
      path,
      { prompts: [{ prompt, language: 'en-US', topic: 'Formats', platforms: [], regions: [] }] },
      { 'x-api-key': key, accept: 'text/csv' },
    );
    expect(r.status).toBe(406);
    expect(((await r.json()) as { code: string }).code).toBe('not_acceptable');
    const listed = (await (await fetch(`${path}?limit=1000`, { headers: { 'x-api-key': key } })).json()) as {
      data: { prompt: string }[];
    };
    expect(listed.data.map((p) => p.prompt)).not.toContain(prompt);
    const listing = await fetch(`${server.url}/v1/org/models`, {
      headers: { 'x-api-key': key, accept: 'application/vnd.apache.parquet' },
    });
    expect(listing.status).toBe(406);
  });

  it('stops the query and frees its connection when the client leaves an export midway; the export counts as a stream', async () => {
    const r = await post(`${server.url}/v2/reports/visibility/stream`, big(), { 'x-api-key': key, accept: 'text/csv' });
    expect(r.status).toBe(200);
    const reader = r.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first.startsWith('prompt.id,prompt.name,date,asset.name')).toBe(true);
    const second = await post(`${server.url}/v2/reports/visibility/stream`, big(), {
      'x-api-key': key,
      accept: 'application/x-ndjson',
    });
    expect([second.status, ((await second.json()) as { code: string }).code]).toEqual([429, 'too_many_streams']);
    await reader.cancel();
    await waitFor(() => engine.core.stats.activeStreams === 0 && engine.core.pool.active === 0);
    const capped = { ...big(), max_results: 2 };
    const again = await post(`${server.url}/v2/reports/visibility/stream`, capped, {
      'x-api-key': key,
      accept: 'application/x-ndjson',
    });
    const events = [];
    for await (const e of engine.org(org).reports.visibilityStream(capped))
      if (e.event === 'result') events.push(e.data);
    expect(
      (await again.text())
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual(events);
  });

  it('lists the formats in OpenAPI for reports and streams, JSON only for resources, and the 406', async () => {
    type Operation = { responses: Record<string, { content?: Record<string, unknown> }> };
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const types = [
      'application/x-ndjson',
      'text/csv',
      'application/vnd.apache.arrow.stream',
      'application/vnd.apache.parquet',
    ];
    expect(Object.keys(doc.paths['/v2/reports/visibility']!.post!.responses['200']!.content!)).toEqual([
      'application/json',
      ...types,
    ]);
    expect(Object.keys(doc.paths['/v1/reports/citations/stream']!.post!.responses['200']!.content!)).toEqual([
      'text/event-stream',
      ...types,
    ]);
    expect(Object.keys(doc.paths['/v1/org/models']!.get!.responses['200']!.content!)).toEqual(['application/json']);
    expect(doc.paths['/v2/prompts/answers']!.post!.responses['406']).toBeDefined();
  });
});

describe('library: the format option', () => {
  it('refuses an unknown format and an answer without rows', async () => {
    const reports = engine.org(org).reports;
    await expect(reports.visibility(visibility(), { format: 'xml' as never })).rejects.toBeInstanceOf(
      NotAcceptableError,
    );
    expect(() => rowsFor({ kind: 'json', status: 200, json: '{}' }, 'csv', '/v1/org/models')).toThrow(
      NotAcceptableError,
    );
  });

  it('stops the query when a stream of record batches is left early', async () => {
    let batches = 0;
    for await (const b of engine.org(org).reports.visibilityStream(big(), { format: 'arrow' })) {
      expect(JSON.parse(b.schema.metadata.get('aea:head')!)).toMatchObject({ count: expect.any(Number) });
      if (++batches === 1) break;
    }
    await waitFor(() => engine.core.stats.activeStreams === 0 && engine.core.pool.active === 0);
  });
});

describe('CLI: --format and --out', () => {
  const args = (path: string, body: object) => [
    'query',
    path,
    '--data',
    sampleDir,
    '--state',
    join(dir, 'cli.state.duckdb'),
    '--org',
    org,
    '--body',
    JSON.stringify(body),
  ];

  it('writes binary formats to standard output only when it is not a terminal', async () => {
    let out = '';
    let err = '';
    const io = {
      out: (t: string) => void (out += t),
      err: (t: string) => void (err += t),
      stdin: async () => '',
      stopped: () => new Promise<void>(() => undefined),
    };
    const code = await runCli([...args('/v2/reports/visibility', visibility()), '--format', 'parquet'], {
      ...io,
      stdout: { isTTY: true, write: async () => undefined },
    });
    expect([code, out]).toEqual([1, '']);
    expect(err).toContain('parquet is binary: give --out FILE');

    const piped = await new Promise<Buffer>((resolve, reject) =>
      execFile(
        process.execPath,
        [aeaBin, ...args('/v2/reports/visibility/stream', { ...visibility(), max_results: 3 }), '--format', 'arrow'],
        { encoding: 'buffer', maxBuffer: 1 << 24 },
        (error, stdout) => (error ? reject(error) : resolve(stdout)),
      ),
    );
    const table = tableFromIPC(piped);
    expect(table.numRows).toBe(3);
    expect(table.schema.fields.map((f) => f.name)).toEqual([
      'asset',
      'rank',
      'visibility_score',
      'share_of_voice',
      'average_position',
    ]);
  });

  it('refuses a table format for an operation without rows before it runs, and leaves no file after a failure', async () => {
    const prompt = 'A prompt that aea query --format csv must not create';
    const create = [
      'query',
      `/v1/org/categories/${category}/prompts`,
      '--data',
      sampleDir,
      '--state',
      join(dir, 'cli.state.duckdb'),
      '--org',
      org,
    ];
    const refused = await aeaInProcess([
      ...create,
      '--body',
      JSON.stringify({ prompts: [{ prompt, language: 'en-US', topic: 'Formats', platforms: [], regions: [] }] }),
      '--format',
      'csv',
    ]);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ code: 'not_acceptable' });
    const listed = await aeaInProcess([
      ...create.slice(0, 1),
      `/v1/org/categories/${category}/prompts?limit=1000`,
      ...create.slice(2),
    ]);
    expect(listed.stdout).not.toContain(prompt);

    const out = join(dir, 'invalid.csv');
    const invalid = await aeaInProcess([
      ...args('/v2/reports/visibility', { ...visibility(), limit: 0 }),
      '--format',
      'csv',
      '--out',
      out,
    ]);
    expect(invalid.code).toBe(2);
    expect(existsSync(out)).toBe(false);
    const unknown = await aeaInProcess([...args('/v2/reports/visibility', visibility()), '--format', 'xlsx']);
    expect([unknown.code, unknown.stderr]).toEqual([
      1,
      expect.stringContaining('--format must be one of json, ndjson, csv, arrow, parquet'),
    ]);
  });

  it('shows rows and bytes written on stderr when it is a terminal', async () => {
    const out = join(dir, 'progress.csv');
    const command = [
      process.execPath,
      aeaBin,
      ...args('/v2/reports/visibility/stream', { ...visibility(), limit: undefined }),
      '--format',
      'csv',
      '--out',
      out,
    ]
      .map((a) => `'${a.replaceAll("'", "'\\''")}'`)
      .join(' ');
    const terminal = await new Promise<string>((resolve, reject) =>
      execFile('script', ['-qec', command, '/dev/null'], (error, stdout) => (error ? reject(error) : resolve(stdout))),
    );
    expect(terminal).toMatch(/aea query → csv \| \d+ rows \| [\d.]+ (B|KiB|MiB)/);
    expect(existsSync(out)).toBe(true);
  });
});
