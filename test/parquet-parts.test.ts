import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TempDisk } from '../src/engine/temp-disk.ts';
import { ExportTooLargeError, TempDiskBusyError } from '../src/errors.ts';
import { parquetBytes, parquetRowGroupRows, type DuckDBLender } from '../src/formats/parquet.ts';
import { array, field, object, value, type ColumnBatch, type RowShape } from '../src/query/row-shape.ts';
import type { RowsResult } from '../src/query/rows-result.ts';
import { rowsOf as rowsResult } from './helpers/rows-of.ts';
import { tempDir } from './helpers/tmp.ts';

/**
 * The Parquet encoder (src/formats/parquet.ts) in process: slices written as parts and joined in order, row
 * groups of `parquetRowGroupRows`, fields without content left out, quoted names, the temporary disk counted
 * as it is written and given back, and the engine's connections used when lent.
 */

const rowsOf = (shape: RowShape, batches: ColumnBatch[], head: Record<string, unknown> = { total: 1 }): RowsResult =>
  rowsResult(shape, batches, head);

let db: DuckDBInstance;
let conn: DuckDBConnection;
let dir: string;
beforeAll(async () => {
  db = await DuckDBInstance.create(':memory:');
  conn = await db.connect();
  dir = await tempDir('aea-parquet-parts-');
});
afterAll(() => {
  conn?.closeSync();
  db?.closeSync();
});

let files = 0;
async function written(result: RowsResult, lender?: DuckDBLender, disk?: TempDisk): Promise<string> {
  const pieces: Uint8Array[] = [];
  for await (const piece of parquetBytes(result, lender, disk)) pieces.push(piece);
  const file = join(dir, `f${files++}.parquet`);
  await writeFile(file, Buffer.concat(pieces));
  return file;
}

async function query(text: string, file: string): Promise<Record<string, unknown>[]> {
  return (await conn.runAndReadAll(text, [file])).getRowObjectsJS() as Record<string, unknown>[];
}

const counted: RowShape = { fields: [field('i', value('i', 'integer')), field('t', value('t', 'text'))] };
const numbered = (from: number, length: number): ColumnBatch => ({
  length,
  columns: {
    i: Array.from({ length }, (_, k) => BigInt(from + k)),
    t: Array.from({ length }, (_, k) => `row ${(from + k) % 7}`),
  },
});

describe('Parquet parts', () => {
  it('keeps the rows in order across batches and slices, in row groups of 65,536 rows or a slice more, with the head', async () => {
    const sizes = [3_000, 1, 40_000, 30_000];
    const batches = sizes.map((n, b) =>
      numbered(
        sizes.slice(0, b).reduce((a, x) => a + x, 0),
        n,
      ),
    );
    const file = await written(rowsOf(counted, batches, { total: 73_001, note: 'é "q"' }));
    const [summary] = await query(
      `SELECT count(*)::INTEGER AS n, bool_and(i = r - 1) AS ordered FROM (SELECT i, row_number() OVER () AS r FROM read_parquet($1))`,
      file,
    );
    expect(summary).toEqual({ n: 73_001, ordered: true });
    const groups = await query(
      `SELECT row_group_num_rows::INTEGER AS n FROM parquet_metadata($1) GROUP BY row_group_id, row_group_num_rows ORDER BY row_group_id`,
      file,
    );
    // DuckDB closes a row group at the first chunk (a part's slice) that reaches the size.
    expect(groups).toHaveLength(2);
    expect(groups[0]!.n).toBeGreaterThanOrEqual(parquetRowGroupRows);
    expect(groups[0]!.n).toBeLessThan(parquetRowGroupRows + 2048);
    const [kv] = await query(
      `SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata($1) WHERE decode(key) = 'aea:head'`,
      file,
    );
    expect(JSON.parse(String(kv!.v))).toEqual({ total: 73_001, note: 'é "q"' });
  });

  it('leaves out objects and structs without a field, at any depth, and quotes names', async () => {
    const shape: RowShape = {
      fields: [
        field('dims', object([])),
        field('nested', object([field('none', object([])), field('x', value('x', 'integer'))])),
        field('pair', array([field('empty', object([]))])),
        field('bare', value('bare', { struct: [] })),
        field('bares', value('bares', { list: { struct: [{ name: 'e', type: { struct: [] } }] } })),
        field(
          'ref',
          value('ref', {
            struct: [
              { name: 'say "hi"', type: 'text' },
              { name: 'gone', type: { list: { struct: [] } } },
            ],
          }),
        ),
      ],
    };
    const batch: ColumnBatch = {
      length: 2,
      columns: {
        x: [1n, null],
        bare: [{}, null],
        bares: [[{ e: {} }], []],
        ref: [{ 'say "hi"': 'a', gone: [] }, null],
      },
    };
    const file = await written(rowsOf(shape, [batch]));
    const described = await query(
      `SELECT column_name AS c, column_type AS t FROM (DESCRIBE SELECT * FROM read_parquet($1))`,
      file,
    );
    expect(described).toEqual([
      { c: 'nested', t: 'STRUCT(x BIGINT)' },
      { c: 'ref', t: 'STRUCT("say ""hi""" VARCHAR)' },
    ]);
    const rows = await query(`SELECT nested.x AS x, ref."say ""hi""" AS said FROM read_parquet($1)`, file);
    expect(rows).toEqual([
      { x: 1n, said: 'a' },
      { x: null, said: null },
    ]);
  });

  it('types each scalar as DuckDB does: booleans, days, instants, floats', async () => {
    const typed: RowShape = {
      fields: [
        field('b', value('b', 'boolean')),
        field('d', value('d', 'date')),
        field('at', value('at', 'instant')),
        field('x', value('x', 'float')),
      ],
    };
    const batch: ColumnBatch = {
      length: 2,
      columns: {
        b: [true, null],
        d: [new Date(Date.UTC(2026, 2, 8)), null],
        at: [new Date(Date.UTC(2026, 2, 8, 7, 30, 59, 750)), null],
        x: [0.5, Number.NaN],
      },
    };
    const file = await written(rowsOf(typed, [batch]));
    expect(
      await query(`SELECT column_name AS c, column_type AS t FROM (DESCRIBE SELECT * FROM read_parquet($1))`, file),
    ).toEqual([
      { c: 'b', t: 'BOOLEAN' },
      { c: 'd', t: 'DATE' },
      { c: 'at', t: 'TIMESTAMP WITH TIME ZONE' },
      { c: 'x', t: 'DOUBLE' },
    ]);
    expect(
      await query(
        `SELECT b, strftime(d, '%Y-%m-%d') AS d, epoch_ms("at")::BIGINT AS at, x FROM read_parquet($1)`,
        file,
      ),
    ).toEqual([
      { b: true, d: '2026-03-08', at: BigInt(Date.UTC(2026, 2, 8, 7, 30, 59)), x: 0.5 },
      { b: null, d: null, at: null, x: null },
    ]);
  });

  it('writes a file with its columns and no rows for an answer without rows', async () => {
    const file = await written(rowsOf(counted, [], { total: 0 }));
    expect(
      await query(`SELECT column_name AS c, column_type AS t FROM (DESCRIBE SELECT * FROM read_parquet($1))`, file),
    ).toEqual([
      { c: 'i', t: 'BIGINT' },
      { c: 't', t: 'VARCHAR' },
    ]);
    expect(await query(`SELECT count(*)::INTEGER AS n FROM read_parquet($1)`, file)).toEqual([{ n: 0 }]);
  });
});

describe('the temporary disk of a Parquet export', () => {
  const slices = () => [numbered(0, 2048), numbered(2048, 2048), numbered(4096, 2048), numbered(6144, 2048)];
  /** Bytes of one slice's NDJSON, as the encoder writes it. */
  const sliceBytes = Buffer.byteLength(
    Array.from({ length: 2048 }, (_, k) => `{"i":${k},"t":"row ${k % 7}"}\n`).join(''),
  );

  it('is given back as each slice’s NDJSON is removed and as the export ends', async () => {
    // Room for two slices' NDJSON at once, not for the four slices' together.
    const disk = new TempDisk(2.5 * sliceBytes, 100 * sliceBytes);
    const file = await written(rowsOf(counted, slices()), undefined, disk);
    expect(await query(`SELECT count(*)::INTEGER AS n FROM read_parquet($1)`, file)).toEqual([{ n: 8192 }]);
    expect(disk.used).toBe(0);
  });

  it('refuses an export past its own bound (413) or past the process’s (503), and gives back what it held', async () => {
    const small = new TempDisk(sliceBytes - 1, 100 * sliceBytes);
    await expect(written(rowsOf(counted, slices()), undefined, small)).rejects.toBeInstanceOf(ExportTooLargeError);
    expect(small.used).toBe(0);
    const busy = new TempDisk(100 * sliceBytes, sliceBytes - 1);
    await expect(written(rowsOf(counted, slices()), undefined, busy)).rejects.toBeInstanceOf(TempDiskBusyError);
    expect(busy.used).toBe(0);
  });
});

describe('the DuckDB a Parquet export writes with', () => {
  it('is the lender’s when one is given: every part and the file through it', async () => {
    let uses = 0;
    const lender: DuckDBLender = {
      use: async (fn) => {
        uses++;
        return fn(conn);
      },
    };
    const file = await written(rowsOf(counted, [numbered(0, 5000), numbered(5000, 10)]), lender);
    expect(uses).toBe(4 + 1);
    expect(await query(`SELECT count(*)::INTEGER AS n, max(i)::INTEGER AS m FROM read_parquet($1)`, file)).toEqual([
      { n: 5010, m: 5009 },
    ]);
  });
});
