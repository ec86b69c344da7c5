import { cp, readFile, rename, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '../../src/engine/duckdb-api.ts';
import { sha256File } from '../../src/engine/content-hashes.ts';
import { pathLiteral } from '../../src/engine/literal.ts';
import { tableNames, tables } from '../../src/model/tables.ts';

const timeOrdered = tableNames.filter((t) =>
  (tables[t].sort as readonly string[]).some((c) => c === 'executed_at' || c === 'ts'),
);

/**
 * Copies the dataset in `from` to `base` without the rows of its last day (every fact table's, that
 * day in UTC), and writes those rows to `day` laid out as a dataset, as `aea append --from` reads them;
 * `base`'s manifest records the rewritten files. Answers the day.
 */
export async function splitLastDay(from: string, base: string, day: string): Promise<string> {
  await cp(from, base, { recursive: true });
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await instance.connect();
  const manifestFile = join(base, 'dataset.json');
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as {
    files: Record<string, string>;
    rows: Record<string, number>;
  };
  try {
    await conn.run(`SET TimeZone = 'UTC'`);
    const last = String(
      (
        await conn.runAndReadAll(
          `SELECT max(day)::VARCHAR FROM read_parquet(${pathLiteral(join(base, 'executions', '*.parquet'))})`,
        )
      ).getRowsJS()[0]![0],
    );
    for (const table of timeOrdered) {
      const folder = join(base, table);
      if (!existsSync(folder)) continue;
      const columns = (
        await conn.runAndReadAll(
          `SELECT column_name FROM (DESCRIBE SELECT * FROM read_parquet(${pathLiteral(join(folder, '*.parquet'))}))`,
        )
      )
        .getRowsJS()
        .map((r) => String(r[0]));
      const onDay = columns.includes('day') ? `day = DATE '${last}'` : `CAST(ts AS DATE) = DATE '${last}'`;
      await cp(folder, join(day, table), { recursive: true, filter: (src) => src === folder });
      const moved = await conn.run(
        `COPY (SELECT * FROM read_parquet(${pathLiteral(join(folder, '*.parquet'))}) WHERE ${onDay}) TO ${pathLiteral(join(day, table, 'part-0000.parquet'))} (FORMAT parquet, COMPRESSION zstd)`,
      );
      for (const part of readdirSync(folder).filter((f) => f.endsWith('.parquet'))) {
        const file = join(folder, part);
        await conn.run(
          `COPY (SELECT * FROM read_parquet(${pathLiteral(file)}) WHERE NOT (${onDay})) TO ${pathLiteral(`${file}.tmp`)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 122880)`,
        );
        await rename(`${file}.tmp`, file);
        manifest.files[`${table}/${part}`] = await sha256File(file);
      }
      manifest.rows[table] = (manifest.rows[table] ?? 0) - Number(moved.rowsChanged);
    }
    await writeFile(manifestFile, JSON.stringify(manifest, null, 2));
    return last;
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
