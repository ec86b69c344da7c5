import { DuckDBInstance, JSDuckDBValueConverter } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { chunkBatch, readerBatch, vectorValues } from '../src/engine/column-reads.ts';

/** The converter's value with a 64-bit integer that fits a double exactly as the number: what the memory read gives. */
const expected = (v: unknown) => (typeof v === 'bigint' && v < 2n ** 52n && v >= -(2n ** 52n) ? Number(v) : v);

async function chunks(query: string, convert = true) {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    const result = await conn.stream(query);
    const names = result.columnNames();
    const out = [];
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      out.push({ names, chunk, batch: convert ? chunkBatch(names, chunk) : undefined });
    }
    return out;
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

describe('chunk columns read from vector memory', () => {
  it('give exactly the converter values, nulls at every bit of the validity words included', async () => {
    // 3,000 rows: two chunks, nulls on a pattern that crosses 32- and 64-bit word boundaries.
    const got = await chunks(`
      SELECT
        CASE WHEN i % 7 = 3 THEN NULL ELSE ((i % 200) - 100)::TINYINT END AS t,
        CASE WHEN i % 5 = 0 THEN NULL ELSE (i * 20 - 30000)::SMALLINT END AS s,
        CASE WHEN i % 3 = 1 THEN NULL ELSE (i * 1000003 - 2000000000)::INTEGER END AS n,
        CASE WHEN i % 11 = 2 THEN NULL ELSE (i * 1400000)::UINTEGER END AS u,
        CASE WHEN i % 13 = 5 THEN NULL
             WHEN i % 4 = 0 THEN (i::BIGINT * 3000000000000000) - 4000000000000000000
             ELSE (i::BIGINT * 1234567891 - 99999999999) END AS b,
        CASE WHEN i % 9 = 4 THEN NULL WHEN i = 10 THEN 'nan'::DOUBLE WHEN i = 11 THEN '-inf'::DOUBLE
             WHEN i = 12 THEN -0.0::DOUBLE ELSE i / 7.0 - 100 END AS d,
        CASE WHEN i % 6 = 1 THEN NULL ELSE (i / 3.0)::FLOAT END AS f,
        CASE WHEN i % 8 = 7 THEN NULL ELSE i % 2 = 0 END AS ok,
        CASE WHEN i % 10 = 9 THEN NULL ELSE DATE '1900-01-01' + (i * 17)::INTEGER END AS day,
        CASE WHEN i % 12 = 11 THEN NULL
             ELSE TIMESTAMPTZ '1960-06-01 00:00:00+00' + to_microseconds(i::BIGINT * 987654321777) END AS at,
        CASE WHEN i % 14 = 13 THEN NULL
             ELSE TIMESTAMP '1969-12-31 23:59:59.9995' + to_microseconds(i::BIGINT * 3) END AS ts,
        CASE WHEN i % 4 = 2 THEN NULL ELSE 'name ' || i END AS text
      FROM range(3000) r(i)`);
    expect(got.length).toBeGreaterThan(1);
    for (const { names, chunk, batch } of got) {
      names.forEach((name, c) => {
        const converted = chunk.convertColumnValues(c, JSDuckDBValueConverter).map(expected);
        expect(batch!.columns[name], name).toEqual(converted);
      });
      // Every fixed-width column was read from memory, not converted.
      names
        .slice(0, 11)
        .forEach((name, c) => expect(vectorValues(chunk.getColumnVector(c), chunk.rowCount), name).toBeDefined());
    }
  });

  it('leave values a double cannot hold, and days a Date cannot hold, to the converter', async () => {
    const { chunk, batch } = (
      await chunks(`SELECT 9007199254740993::BIGINT AS b, (-9223372036854775807)::BIGINT AS c`)
    )[0]!;
    expect(batch!.columns.b).toEqual([9007199254740993n]);
    expect(batch!.columns.c).toEqual([-9223372036854775807n]);
    expect(vectorValues(chunk.getColumnVector(0), 1)).toEqual([9007199254740993n]);
    const far = (await chunks(`SELECT 'infinity'::DATE AS day`, false))[0]!.chunk;
    expect(vectorValues(far.getColumnVector(0), 1)).toBeUndefined();
  });

  it('read a whole result chunk by chunk into one batch equal to the converter columns, lists and structs included', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    try {
      const reader = await conn.runAndReadAll(`
        SELECT i::BIGINT * 1000000007 AS b, DATE '2026-01-01' + (i % 400)::INTEGER AS day,
          CASE WHEN i % 3 = 0 THEN NULL ELSE 'text ' || i END AS t,
          [i, i + 1] AS xs, {'id': 'x' || i, 'n': i % 7} AS ref, i % 2 = 0 AS ok
        FROM range(5000) r(i)`);
      const batch = await readerBatch(reader);
      expect(batch.length).toBe(5000);
      // Read from memory (the converter gives bigints).
      expect(typeof batch.columns.b![4999]).toBe('number');
      const converted = reader.getColumnsJS();
      reader.columnNames().forEach((name, c) => expect(batch.columns[name], name).toEqual(converted[c]!.map(expected)));
    } finally {
      conn.closeSync();
      db.closeSync();
    }
  });
});
