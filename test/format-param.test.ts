import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import type { Engine } from '../src/library/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { post, startServer, type TestServer } from './helpers/server.ts';
import { tempDir } from './helpers/tmp.ts';

/** `?format=` beside Accept on every report endpoint: what a spreadsheet's import from a URL can send. */
let engine: Engine;
let server: TestServer;
let key: string;
let category: string;

beforeAll(async () => {
  engine = await openEngine({ data: sampleDir });
  const [first] = await engine.listOrganizations();
  category = first!.categories[0]!.id;
  server = await startServer(engine, { rateLimit: false });
  key = await server.key(first!.id);
});
afterAll(async () => {
  await server?.close();
  await engine?.close();
});

const body = () => ({
  category_id: category,
  start_date: '2026-10-01',
  end_date: '2026-10-31',
  scope: 'all',
  limit: 5,
});
const at = (path: string, format?: string) =>
  `${server.url}${path}${format === undefined ? '' : `?format=${encodeURIComponent(format)}`}`;

describe('?format= chooses the format where Accept cannot', () => {
  it('gives each table format without an Accept header, the same bytes as Accept gives', async () => {
    for (const [format, mediaType] of [
      ['csv', 'text/csv'],
      ['ndjson', 'application/x-ndjson'],
      ['arrow', 'application/vnd.apache.arrow.stream'],
      ['parquet', 'application/vnd.apache.parquet'],
    ] as const) {
      const byUrl = await post(at('/v2/reports/visibility', format), body(), { 'x-api-key': key });
      expect(byUrl.status, format).toBe(200);
      expect(byUrl.headers.get('content-type')).toContain(mediaType);
      const byAccept = await post(at('/v2/reports/visibility'), body(), { 'x-api-key': key, accept: mediaType });
      const [a, b] = [Buffer.from(await byUrl.arrayBuffer()), Buffer.from(await byAccept.arrayBuffer())];
      if (format === 'parquet') expect(a.subarray(0, 4).toString()).toBe('PAR1');
      else expect(a.equals(b), format).toBe(true);
      if (format === 'arrow') expect(tableFromIPC(a).numRows).toBeGreaterThan(0);
    }
  });

  it('takes an Accept that agrees: */*, a browser’s, the same media type', async () => {
    for (const accept of [
      '*/*',
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'text/csv',
      'text/*',
    ]) {
      const r = await post(at('/v2/reports/visibility', 'csv'), body(), { 'x-api-key': key, accept });
      expect(r.status, accept).toBe(200);
      expect(r.headers.get('content-type'), accept).toContain('text/csv');
    }
  });

  it('answers 406 when Accept disagrees, 422 naming ["query","format"] for an unknown format', async () => {
    const disagree = await post(at('/v2/reports/visibility', 'csv'), body(), {
      'x-api-key': key,
      accept: 'application/json',
    });
    expect(disagree.status).toBe(406);
    expect(await disagree.json()).toEqual({ detail: expect.stringContaining('format=csv'), code: 'not_acceptable' });
    for (const bad of ['xml', 'CSV', '']) {
      const r = await post(at('/v2/reports/visibility', bad), body(), { 'x-api-key': key });
      expect(r.status, bad).toBe(422);
      const detail = ((await r.json()) as { detail: { loc: string[]; input: unknown }[] }).detail;
      expect(detail.map((d) => d.loc)).toEqual([['query', 'format']]);
      expect(detail[0]!.input).toBe(bad);
    }
  });

  it('works on streams and tabular reports, and keeps the extensions beside it', async () => {
    const stream = await post(
      at('/v2/reports/visibility/stream', 'ndjson'),
      { ...body(), limit: undefined },
      { 'x-api-key': key },
    );
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('application/x-ndjson');
    const sse = await post(
      at('/v2/reports/visibility/stream', 'json'),
      { ...body(), limit: undefined },
      { 'x-api-key': key, accept: 'text/event-stream' },
    );
    expect(sse.headers.get('content-type')).toContain('text/event-stream');
    await sse.text();
    await stream.text();
    const tabular = {
      category_id: category,
      start_date: '2026-10-01',
      end_date: '2026-11-01',
      metrics: ['executions'],
      dimensions: ['date'],
    };
    const filled = await post(`${server.url}/v1/reports/visibility?format=csv&fill=zero`, tabular, {
      'x-api-key': key,
    });
    expect(filled.status).toBe(200);
    const lines = (await filled.text()).trim().split('\n');
    expect(lines[0]).toBe('metrics.executions,dimensions.date');
    expect(lines.length).toBe(1 + 31);
  });

  it('is in the OpenAPI document of every report operation', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<string, { parameters?: { name: string; in: string; schema: { enum?: string[] } }[] }>
      >;
    };
    const visibility = doc.paths['/v2/reports/visibility']!.post!.parameters!.find(
      (p) => p.name === 'format' && p.in === 'query',
    );
    expect(visibility?.schema.enum).toEqual(['json', 'ndjson', 'csv', 'arrow', 'parquet']);
    expect(doc.paths['/v1/reports/bots']!.post!.parameters!.some((p) => p.name === 'format')).toBe(true);
  });
});

describe('aea query: PATH?format= and --format table', () => {
  const org = async () => (await engine.listOrganizations())[0]!.id;
  let state = '';
  beforeAll(async () => {
    state = join(await tempDir('aea-format-cli-'), 'state.duckdb');
  });
  const args = async (path: string, request: object, ...more: string[]) => [
    'query',
    path,
    '--data',
    sampleDir,
    '--org',
    await org(),
    '--body',
    JSON.stringify(request),
    '--state',
    state,
    ...more,
  ];

  it('PATH?format=csv writes what --format csv writes; a disagreeing pair is refused', async () => {
    const { aeaInProcess } = await import('./helpers/cli.ts');
    const byFlag = await aeaInProcess(await args('/v2/reports/visibility', body(), '--format', 'csv'));
    const byPath = await aeaInProcess(await args('/v2/reports/visibility?format=csv', body()));
    expect(byFlag.code).toBe(0);
    expect(byPath.stdout).toBe(byFlag.stdout);
    expect(byPath.stdout.split('\n')[0]).toBe(
      'asset.name,asset.owned,rank,visibility_score,share_of_voice,average_position',
    );
    const both = await aeaInProcess(await args('/v2/reports/visibility?format=json', body(), '--format', 'csv'));
    expect(both.code).not.toBe(0);
    expect(both.stderr).toContain('disagree');
  });

  it('--format table draws an aligned box: a header of the CSV’s columns, numbers on the right, the row count', async () => {
    const { aeaInProcess } = await import('./helpers/cli.ts');
    const r = await aeaInProcess(await args('/v2/reports/visibility', body(), '--format', 'table'));
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    const box = lines.slice(0, -1);
    expect(box[0]!.startsWith('┌')).toBe(true);
    expect(box.at(-1)!.startsWith('└')).toBe(true);
    expect(new Set(box.map((l) => [...l].length)).size).toBe(1);
    expect(
      box[1]!
        .split('│')
        .map((c) => c.trim())
        .filter(Boolean),
    ).toEqual(['asset.name', 'asset.owned', 'rank', 'visibility_score', 'share_of_voice', 'average_position']);
    expect(box.length).toBe(4 + 5);
    expect(box[3]).toMatch(/│ +1 │/);
    expect(lines.at(-1)).toBe('5 rows');
  });

  it('--format table draws at most 1,000 rows and counts the rest', async () => {
    const { aeaInProcess } = await import('./helpers/cli.ts');
    const request = {
      category_id: category,
      start_date: '2026-01-01',
      end_date: '2026-07-01',
      metrics: ['count'],
      dimensions: ['url', 'date'],
      pagination: { limit: 5000 },
    };
    const json = JSON.parse((await aeaInProcess(await args('/v1/reports/citations', request))).stdout) as {
      info: { total_rows: number };
      data: unknown[];
    };
    expect(json.data.length).toBeGreaterThan(1000);
    const r = await aeaInProcess(await args('/v1/reports/citations', request, '--format', 'table'));
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.length).toBe(4 + 1000 + 1);
    expect(lines.at(-1)).toBe(
      `1,000 of ${json.data.length.toLocaleString('en-US')} rows shown (--format csv or ndjson for all)`,
    );
  });
});
