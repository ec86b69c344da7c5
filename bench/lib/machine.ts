import { execSync } from 'node:child_process';
import { cpus, release, totalmem } from 'node:os';

export interface Machine {
  readonly cpus: string;
  readonly memory: string;
  readonly os: string;
  readonly node: string;
  readonly duckdb: string;
}

export function machine(duckdbVersion: string): Machine {
  return {
    cpus: `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}`,
    memory: `${Math.round(totalmem() / 2 ** 30)} GiB`,
    os: `${process.platform} ${release()}`,
    node: process.version,
    duckdb: duckdbVersion,
  };
}

/** The commit the numbers belong to; `+dirty` when the work tree has uncommitted changes. */
export function commit(): string {
  try {
    const head = execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
    const dirty =
      execSync('git status --porcelain --untracked-files=no', { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim() !== '';
    return dirty ? `${head}+dirty` : head;
  } catch {
    return 'unknown';
  }
}
