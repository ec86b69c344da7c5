// The Parquet writer's own cost over a generated dataset (issue 27): every file read into memory, then
// written back with the generator's options (zstd, 122,880-row groups), only the writes timed. What the
// generator spends beyond it is the rows' drawing and sorting. Usage:
//   npx tsx bench/parquet-writer-floor.ts DATA_DIR [THREADS]
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '../src/engine/duckdb-api.ts';
import { pathLiteral } from '../src/engine/literal.ts';
import { tempFolderSync } from '../src/engine/temp-paths.ts';

const [dir, threads = '2'] = process.argv.slice(2);
if (!dir) throw new Error('usage: parquet-writer-floor.ts DATA_DIR [THREADS]');
const files = readdirSync(dir, { withFileTypes: true, recursive: true })
  .filter((e) => e.isFile() && e.name.endsWith('.parquet') && !e.parentPath.includes('.tmp'))
  .map((e) => join(e.parentPath, e.name))
  .sort();
const scratch = tempFolderSync('writerfloor');
const out = join(scratch, 'floor.parquet');
const db = await DuckDBInstance.create(':memory:', { threads, preserve_insertion_order: 'true' });
const conn = await db.connect();
let rows = 0;
let cpuMs = 0;
let wallMs = 0;
try {
  for (const file of files) {
    await conn.run(`CREATE OR REPLACE TABLE t AS SELECT * FROM read_parquet(${pathLiteral(file)})`);
    const cpu = process.cpuUsage();
    const started = performance.now();
    const written = await conn.run(
      `COPY t TO ${pathLiteral(out)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 122880)`,
    );
    wallMs += performance.now() - started;
    const used = process.cpuUsage(cpu);
    cpuMs += (used.user + used.system) / 1000;
    rows += Number(written.rowsChanged);
  }
} finally {
  conn.closeSync();
  db.closeSync();
  rmSync(scratch, { recursive: true, force: true });
}
console.log(
  `${files.length} files, ${rows} rows: writes ${(wallMs / 1000).toFixed(1)} s wall, ${(cpuMs / 1000).toFixed(1)} CPU s, ${((cpuMs * 1000) / rows).toFixed(2)} µs a row (threads ${threads})`,
);
