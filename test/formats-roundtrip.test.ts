import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import type { Engine } from '../src/library/engine.ts';
import type { TableFormat } from '../src/formats/format-names.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { aeaInProcess } from './helpers/cli.ts';
import { expectSameAnswer as sameAnswer, libraryOutputs as libraryOutputsOf } from './helpers/format-answers.ts';
import {
  answerOf,
  csvTable,
  parquetRead,
  saved,
  writeDatasetFolder,
  type Answer,
  type JsonRow,
  type TypedRead,
} from './helpers/formats.ts';
import { post, startServer, type TestServer } from './helpers/server.ts';
import { tempDir } from './helpers/tmp.ts';
import { ids } from './fixtures/insights.ts';
import { tabularFixture } from './fixtures/tabular.ts';

/**
 * Every format read back by an independent reader (DuckDB for NDJSON, CSV and Parquet; apache-arrow for
 * Arrow IPC) equals the JSON answer of the same request, through the library, HTTP on a real socket and
 * the CLI. The fixture has a model and a persona named '' beside answers without a persona, a tag named
 * '', days, instants and lists.
 */

interface Case {
  readonly name: string;
  readonly path: string;
  readonly library: string;
  readonly body: JsonRow;
  readonly cli?: boolean;
}

const window = { category_id: ids.cat1, start_date: '2026-02-20', end_date: '2026-12-31' };
const v1Window = { category_id: ids.cat1, start_date: '2026-02-20', end_date: '2027-01-01' };
const tabularBody = {
  ...v1Window,
  metrics: ['visibility_score', 'mentions_count', 'share_of_voice'],
  dimensions: ['model', 'persona', 'date', 'asset_name'],
  date_interval: 'month',
};

const cases: Case[] = [
  {
    name: 'v2 page (visibility)',
    path: '/v2/reports/visibility',
    library: 'visibility',
    body: {
      ...window,
      start_date: '2026-10-01',
      end_date: '2026-10-31',
      scope: 'all',
      group_by: ['persona', 'model', 'date'],
      interval: 'month',
      limit: 50,
    },
    cli: true,
  },
  {
    name: 'v2 stream (visibility)',
    path: '/v2/reports/visibility/stream',
    library: 'visibilityStream',
    body: { ...window, scope: 'all', group_by: ['persona', 'date'], interval: 'week' },
    cli: true,
  },
  {
    name: 'tabular page (v1 visibility)',
    path: '/v1/reports/visibility',
    library: 'visibilityV1',
    body: tabularBody,
    cli: true,
  },
  {
    name: 'tabular stream (v1 visibility)',
    path: '/v1/reports/visibility/stream',
    library: 'visibilityV1Stream',
    body: tabularBody,
    cli: true,
  },
  {
    name: 'prompt answers v2 page',
    path: '/v2/prompts/answers',
    library: 'promptAnswers',
    body: { ...window, limit: 50 },
  },
  {
    name: 'prompt answers v2 stream',
    path: '/v2/prompts/answers/stream',
    library: 'promptAnswersStream',
    body: window,
    cli: true,
  },
  {
    name: 'prompt answers v1 page',
    path: '/v1/prompts/answers',
    library: 'promptAnswersV1',
    body: { ...v1Window, include: { themes: true } },
    cli: true,
  },
];

const tableFormats: TableFormat[] = ['ndjson', 'csv', 'arrow', 'parquet'];
const isStream = (c: Case) => c.path.endsWith('/stream');
const mediaTypes: Record<TableFormat, string> = {
  ndjson: 'application/x-ndjson',
  csv: 'text/csv',
  arrow: 'application/vnd.apache.arrow.stream',
  parquet: 'application/vnd.apache.parquet',
};

let engine: Engine;
let server: TestServer;
let key: string;
let dir: string;
let data: string;
let state: string;

beforeAll(async () => {
  dir = await tempDir('aea-formats-');
  data = join(dir, 'data');
  await mkdir(data);
  const fixture = await openFixture(tabularFixture());
  try {
    await writeDatasetFolder(fixture, data);
  } finally {
    await fixture.close();
  }
  engine = await openEngine({ data, clock: () => new Date('2026-12-01T00:00:00Z') });
  server = await startServer(engine, { rateLimit: false });
  key = await server.key(ids.org1);
  state = join(dir, 'state.duckdb');
});
afterAll(async () => {
  await server?.close();
  await engine?.close();
});

const withoutCursor = ({ next_cursor: _c, ...head }: JsonRow) => head;

/** The typed columns a case must come in, as Arrow and as Parquet read by DuckDB. */
const typesOf: Record<string, { arrow: Record<string, string>; parquet: Record<string, string> }> = {
  visibility: {
    arrow: {
      persona: 'Struct<{id:Utf8, name:Utf8}>',
      date: 'Date32<DAY>',
      asset: 'Struct<{name:Utf8, owned:Bool}>',
      rank: 'Int64',
      visibility_score: 'Float64',
    },
    parquet: {
      persona: 'STRUCT("id" VARCHAR, "name" VARCHAR)',
      date: 'DATE',
      rank: 'BIGINT',
      visibility_score: 'DOUBLE',
    },
  },
  visibilityV1: {
    arrow: {
      metrics: 'Struct<{visibility_score:Float64, mentions_count:Int64, share_of_voice:Float64}>',
      dimensions: 'Struct<{model:Utf8, persona:Utf8, date:Date32<DAY>, asset_name:Utf8}>',
    },
    parquet: {
      metrics: 'STRUCT("visibility_score" DOUBLE, "mentions_count" BIGINT, "share_of_voice" DOUBLE)',
      dimensions: 'STRUCT("model" VARCHAR, "persona" VARCHAR, "date" DATE, "asset_name" VARCHAR)',
    },
  },
  promptAnswersStream: {
    arrow: {
      date: 'Timestamp<MILLISECOND, UTC>',
      model: 'Struct<{id:Utf8, name:Utf8}>',
      tags: 'List<Utf8>',
      mentions: 'List<Utf8>',
    },
    parquet: { date: 'TIMESTAMP WITH TIME ZONE', tags: 'VARCHAR[]', citations: 'VARCHAR[]' },
  },
  promptAnswersV1: {
    arrow: {
      created_at: 'Timestamp<MILLISECOND, UTC>',
      search_triggered: 'Bool',
      sentiment_themes: 'List<Struct<{name:Utf8, type:Utf8}>>',
    },
    parquet: { created_at: 'TIMESTAMP WITH TIME ZONE', sentiment_themes: 'STRUCT("name" VARCHAR, "type" VARCHAR)[]' },
  },
};

const libraryOutputs = (c: Case) => libraryOutputsOf(engine.org(ids.org1), c.library, c.body);
const expectSameAnswer = (
  c: Case,
  answer: Answer,
  outputs: Record<TableFormat, Uint8Array | string | TypedRead>,
  headOf?: (h: JsonRow) => JsonRow,
) => sameAnswer(dir, c.library, answer, outputs, headOf);

describe('every format equals the JSON answer, read back independently', () => {
  it.each(cases)('library: $name', async (c) => {
    const { answer, outputs } = await libraryOutputs(c);
    await expectSameAnswer(c, answer, outputs);
    const types = typesOf[c.library];
    if (types) {
      expect((outputs.arrow as TypedRead).types).toMatchObject(types.arrow);
      expect(
        (await parquetRead(await saved(dir, `${c.library}-types.parquet`, outputs.parquet as Uint8Array))).types,
      ).toMatchObject(types.parquet);
    }
  });

  it.each(cases)('HTTP: $name', async (c) => {
    const json = await post(`${server.url}${c.path}`, c.body, { 'x-api-key': key });
    expect(json.status).toBe(200);
    const answer = answerOf(await json.text(), isStream(c));
    const outputs = {} as Record<TableFormat, Uint8Array>;
    for (const format of tableFormats) {
      const r = await post(`${server.url}${c.path}`, c.body, { 'x-api-key': key, accept: mediaTypes[format] });
      expect(r.status, format).toBe(200);
      expect(r.headers.get('content-type')).toMatch(new RegExp(`^${mediaTypes[format]}`));
      expect(r.headers.get('vary')).toBe('Accept');
      outputs[format] = new Uint8Array(await r.arrayBuffer());
    }
    await expectSameAnswer(c, answer, outputs);
  });

  it.each(cases.filter((c) => c.cli))('CLI: $name', async (c) => {
    const args = [
      'query',
      c.path,
      '--data',
      data,
      '--state',
      state,
      '--org',
      ids.org1,
      '--body',
      JSON.stringify(c.body),
    ];
    const json = await aeaInProcess(args);
    expect(json.code, json.stderr).toBe(0);
    const answer = answerOf(json.stdout, isStream(c));
    const outputs = {} as Record<TableFormat, Uint8Array>;
    for (const format of tableFormats) {
      const out = join(dir, `cli-${c.library}.${format}`);
      const r = await aeaInProcess([...args, '--format', format, '--out', out]);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toBe('');
      outputs[format] = await readFile(out);
    }
    // Each CLI run opens the engine anew, with a fresh cursor secret.
    await expectSameAnswer(c, answer, outputs, withoutCursor);
  });

  // null-rule: csv-null-empty
  it('keeps NULL and the empty string apart in every format: the fixture has both', async () => {
    const { answer, outputs } = await libraryOutputs(cases[0]!);
    const personas = answer.rows.map((r) => r.persona as { name: string } | null);
    expect(personas).toContainEqual(null);
    expect(personas.map((p) => p?.name)).toContain('');
    const csv = await csvTable(await saved(dir, 'nulls.csv', outputs.csv as string));
    const names = csv.cells.map((row) => row[csv.columns.indexOf('persona.name')]);
    expect(names).toContain(null);
    expect(names).toContain('');
    expect((outputs.csv as string).split('\n')[0]).toBe(
      'persona.id,persona.name,model.id,model.name,date,asset.name,asset.owned,rank,visibility_score,share_of_voice,average_position',
    );
    const arrowNames = (outputs.arrow as TypedRead).rows.map(
      (r) => (r.persona as { name: string } | null)?.name ?? null,
    );
    expect(arrowNames).toContain(null);
    expect(arrowNames).toContain('');
  });
});
