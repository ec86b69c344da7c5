import { setImmediate } from 'node:timers/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { chunkBatch } from '../src/engine/column-reads.ts';
import { JSDuckDBValueConverter } from '../src/engine/duckdb-api.ts';
import { Slicer } from '../src/query/slicer.ts';

describe('chunkBatch', () => {
  it('converts a chunk a column at a time, giving the event loop its turns between columns, with the values of a conversion at once', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    try {
      const columns = Array.from({ length: 12 }, (_, i) => `CASE WHEN n % 7 = 0 THEN NULL ELSE repeat('é', ${i} + n % 50) END AS c${i}`).join(', ');
      const result = await conn.stream(`SELECT n, [n, NULL] AS l, ${columns} FROM range(2048) t(n)`);
      const chunk = (await result.fetchChunk())!;
      const names = result.columnNames();
      let turns = 0;
      let converting = true;
      const counter = (async () => {
        while (converting) {
          await setImmediate();
          turns++;
        }
      })();
      // A slice of 0 ms: every column waits for a turn of the loop first.
      const batch = await chunkBatch(names, chunk, new Slicer(0));
      converting = false;
      await counter;
      expect(turns).toBeGreaterThanOrEqual(names.length - 1);
      expect(batch.length).toBe(chunk.rowCount);
      const atOnce = chunk.convertColumns(JSDuckDBValueConverter);
      expect(Object.keys(batch.columns)).toEqual(names);
      names.forEach((name, i) => expect(batch.columns[name], name).toEqual(atOnce[i]));
    } finally {
      conn.closeSync();
      db.closeSync();
    }
  });
});
