import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  Field,
  List,
  Table,
  Utf8,
  Utf8View,
  makeVector,
  tableFromArrays,
  tableFromJSON,
  vectorFromArray,
  type Vector,
} from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import type { Engine } from '../src/library/engine.ts';
import { tablesOf } from '../src/engine/operation-tables.ts';
import { DatasetError } from '../src/errors.ts';
import { sampleDir } from '../src/generate/sample.ts';
import type { ColumnDef } from '../src/model/column.ts';
import { tables, type TableName } from '../src/model/tables.ts';
import { firstDifference } from './helpers/answers.ts';
import { linkTables } from './helpers/dataset-folder.ts';
import { tempDir } from './helpers/tmp.ts';

type Row = Record<string, unknown>;

let root: string;
let full: Engine;
let org: string;
let category: string;
const rows = {} as Record<TableName, Row[]>;
const visibilityTables = tablesOf('/v2/reports/visibility');
const body = () =>
  ({
    category_id: category,
    start_date: '2026-01-01',
    end_date: '2026-06-30',
    scope: 'all',
    group_by: ['model', 'topic'],
    limit: 50,
  }) as const;
const v1Body = () =>
  ({
    category_id: category,
    start_date: '2026-01-01',
    end_date: '2026-07-01',
    metrics: ['visibility_score', 'average_position', 'share_of_voice'],
    dimensions: ['asset_name', 'region'],
  }) as const;

beforeAll(async () => {
  root = await tempDir('aea-types-');
  full = await openEngine({ data: sampleDir, cursorSecret: 'types' });
  const listing = (await full.listOrganizations())[0]!;
  org = listing.id;
  category = listing.categories[0]!.id;
  for (const table of [...visibilityTables, 'organizations'] as TableName[]) {
    const source = table === 'prompts' || table === 'topics' ? `dataset_${table}` : table;
    const where =
      'category_id' in tables[table].columns
        ? `category_id = '${category}'`
        : 'organization_id' in tables[table].columns
          ? `organization_id = '${org}'`
          : table === 'organizations'
            ? `id = '${org}'`
            : 'TRUE';
    rows[table] = (
      await full.core.pool.use((c) => c.runAndReadAll(`SELECT * FROM ${source} WHERE ${where}`))
    ).getRowObjectsJS() as Row[];
  }
}, 120_000);
afterAll(() => full.close());

const columnsOf = (table: TableName) => Object.entries(tables[table].columns as Record<string, ColumnDef>);
const strings = (values: unknown[]) => values.map((v) => (v === null ? null : String(v)));

/** An Arrow table as `tableFromArrays` builds it from plain arrays: strings dictionary-encoded, dates as millisecond timestamps. */
function usualArrow(table: TableName): Table {
  const data = rows[table];
  const arrays: Record<string, unknown[] | Int32Array | BigInt64Array | Float64Array> = {};
  const lists: Record<string, Vector> = {};
  for (const [name, column] of columnsOf(table)) {
    const values = data.map((r) => r[name] ?? null);
    if (column.type === 'VARCHAR[]')
      lists[name] = vectorFromArray(
        values.map((v) => strings(v as unknown[])),
        new List(new Field('item', new Utf8(), true)),
      );
    else if (column.type === 'VARCHAR' || column.type === 'UUID') arrays[name] = strings(values);
    else if (column.type === 'INTEGER') arrays[name] = BigInt64Array.from(values, (v) => BigInt(v as number));
    else if (column.type === 'DATE' || column.type === 'TIMESTAMPTZ')
      arrays[name] = values.map((v) => (v === null ? null : new Date(v as Date)));
    else arrays[name] = values;
  }
  const built = tableFromArrays(arrays as never);
  const vectors = Object.fromEntries(columnsOf(table).map(([name]) => [name, lists[name] ?? built.getChild(name)!]));
  return new Table(vectors);
}

/** The answers without their fingerprints: those name the dataset's files, which differ here while the values do not. */
async function visibilityAnswers(engine: Engine) {
  const unprinted = ({ info: { fingerprint: _, ...info }, ...page }: Record<string, any>): Record<string, any> => ({
    ...page,
    info,
  });
  return {
    v2: unprinted(await engine.org(org).reports.visibility(body())),
    v1: unprinted(await engine.org(org).reports.visibilityV1(v1Body())),
  };
}

async function openError(options: Parameters<typeof openEngine>[0]): Promise<string> {
  const error = await openEngine(options).then(
    (e) => e.close().then(() => undefined),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DatasetError);
  return (error as Error).message;
}

describe('Arrow tables built the usual way', () => {
  it('accepts dictionary-encoded strings, Utf8View, int64 and float positions and dates as timestamps', async () => {
    const input: Partial<Record<TableName, Table>> = {};
    for (const table of [...visibilityTables, 'organizations'] as TableName[]) input[table] = usualArrow(table);
    input.mentions = tableFromJSON(rows.mentions.map((r) => ({ ...r, execution_id: String(r.execution_id) })));
    const assets = input.assets!;
    input.assets = new Table({
      ...Object.fromEntries(assets.schema.fields.map((f) => [f.name, assets.getChild(f.name)!])),
      name: vectorFromArray(strings(rows.assets.map((r) => r.name)), new Utf8View()),
    });
    expect(String(input.mentions.schema.fields.find((f) => f.name === 'asset_id')!.type)).toBe(
      'Dictionary<Int32, Utf8>',
    );
    expect(String(input.mentions.schema.fields.find((f) => f.name === 'position')!.type)).toBe('Float64');
    expect(String(input.executions!.schema.fields.find((f) => f.name === 'day')!.type)).toBe('Timestamp<MILLISECOND>');
    expect(String(input.assets.schema.fields.find((f) => f.name === 'name')!.type)).toBe('Utf8View');

    const engine = await openEngine({ tables: input, cursorSecret: 'types' });
    try {
      const got = await visibilityAnswers(engine);
      expect((got.v2.data as unknown[]).length).toBeGreaterThan(0);
      expect(firstDifference(got, await visibilityAnswers(full))).toBeUndefined();
    } finally {
      await engine.close();
    }
  });

  it('refuses a value that does not fit, naming the table, column and row', async () => {
    const base = Object.fromEntries(
      ([...visibilityTables, 'organizations'] as TableName[]).map((t) => [t, usualArrow(t)]),
    );
    const withPosition = (position: Int32Array | BigInt64Array | Float64Array) => {
      const mentions = base.mentions!;
      return {
        ...base,
        mentions: new Table({
          ...Object.fromEntries(mentions.schema.fields.map((f) => [f.name, mentions.getChild(f.name)!])),
          position: makeVector(position),
        }),
      };
    };
    const n = rows.mentions.length;
    const huge = BigInt64Array.from({ length: n }, (_, i) => (i === 3 ? 2n ** 40n : 1n));
    expect(await openError({ tables: withPosition(huge) })).toBe(
      'Arrow table "mentions": column "position" row 3: 1099511627776 does not fit INTEGER',
    );
    const half = Float64Array.from({ length: n }, (_, i) => (i === 5 ? 1.5 : 1));
    expect(await openError({ tables: withPosition(half) })).toBe(
      'Arrow table "mentions": column "position" row 5: 1.5 is not a whole number',
    );
    const executions = base.executions!;
    const days = rows.executions.map((r, i) => new Date((r.day as Date).getTime() + (i === 2 ? 3_600_000 : 0)));
    const shifted = {
      ...base,
      executions: new Table({
        ...Object.fromEntries(executions.schema.fields.map((f) => [f.name, executions.getChild(f.name)!])),
        day: vectorFromArray(days),
      }),
    };
    expect(await openError({ tables: shifted })).toMatch(
      /^Arrow table "executions": column "day" row 2: .*T01:00:00.000Z is not a date \(midnight UTC\)$/,
    );
  });
});

describe('Parquet integer columns written wider, as pandas and DuckDB write them', () => {
  async function withMentions(name: string, select: string): Promise<string> {
    const dir = await linkTables(
      join(root, name),
      visibilityTables.filter((t) => t !== 'mentions'),
    );
    await full.core.pool.use((c) =>
      c.run(
        `COPY (SELECT * REPLACE (${select} AS position) FROM mentions) TO '${join(dir, 'mentions.parquet')}' (FORMAT parquet)`,
      ),
    );
    return dir;
  }

  it('accepts BIGINT and DOUBLE positions whose values fit, with the same answers', async () => {
    for (const [name, select] of [
      ['bigint', 'CAST(position AS BIGINT)'],
      ['double', 'CAST(position AS DOUBLE)'],
    ]) {
      const dir = await withMentions(name!, select!);
      const engine = await openEngine({ data: dir, cursorSecret: 'types' });
      try {
        expect(firstDifference(await visibilityAnswers(engine), await visibilityAnswers(full)), name).toBeUndefined();
      } finally {
        await engine.close();
      }
      await rm(dir, { recursive: true });
    }
  });

  it('refuses a file whose wider values do not fit, naming the file, column and a value', async () => {
    const dir = await withMentions('too-big', 'CASE WHEN position = 2 THEN 3000000000 ELSE position END::BIGINT');
    expect(await openError({ data: dir })).toBe(
      `${join(dir, 'mentions.parquet')}: column "position" of table "mentions" is BIGINT; its value 3000000000 does not fit INTEGER`,
    );
    const fractions = await withMentions('fraction', 'CAST(position AS DOUBLE) + 0.5');
    expect(await openError({ data: fractions })).toMatch(
      /column "position" of table "mentions" is DOUBLE; its value \d+\.5 does not fit INTEGER$/,
    );
  });
});
