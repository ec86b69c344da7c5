import { existsSync, statSync } from 'node:fs';
import { copyFile, rm } from 'node:fs/promises';
import { removeTemp, tempFolder } from '../engine/temp-paths.ts';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { pathLiteral } from '../engine/literal.ts';
import { UnavailableError } from '../errors.ts';

const attempts = 5;

/** Size and modification time of the file and its write-ahead log: a copy is whole when they did not move while it was taken. */
function stamp(file: string): string {
  return [file, `${file}.wal`]
    .map((f) => (existsSync(f) ? `${statSync(f).size}:${statSync(f).mtimeMs}` : '-'))
    .join('|');
}

/**
 * Attaches a read-only copy of a state file another process holds (DuckDB lets one process open a file
 * for writing, and then no other may open it at all). The copy takes the file and its write-ahead log,
 * which DuckDB replays on attach; it is taken again when either changed during the copy. The copy is
 * removed once attached: DuckDB keeps its file open.
 */
export async function attachSnapshot(conn: DuckDBConnection, file: string): Promise<void> {
  const dir = await tempFolder('state');
  const copy = join(dir, 'state.duckdb');
  try {
    for (let attempt = 1; ; attempt++) {
      const before = stamp(file);
      await copyFile(file, copy);
      if (existsSync(`${file}.wal`)) await copyFile(`${file}.wal`, `${copy}.wal`).catch(() => undefined);
      if (stamp(file) === before) {
        try {
          await conn.run(`ATTACH ${pathLiteral(copy)} AS state (READ_ONLY)`);
          return;
        } catch (error) {
          if (attempt >= attempts)
            throw new UnavailableError(
              `cannot read a snapshot of the state store ${file}: ${(error as Error).message.split('\n')[0]}`,
            );
        }
      } else if (attempt >= attempts) {
        throw new UnavailableError(`the state store ${file} kept changing while it was copied; retry`);
      }
      await rm(`${copy}.wal`, { force: true });
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  } finally {
    await removeTemp(dir);
  }
}
