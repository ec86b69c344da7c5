import { spawn, execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { RecordBatchReader } from 'apache-arrow';
import { beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import { isCompleteArrowStream } from '../src/formats/arrow.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { sweepStaleTemp, tempPrefix } from '../src/engine/temp-paths.ts';
import { aeaBin } from './helpers/cli.ts';
import { tempDir } from './helpers/tmp.ts';

let org: string;
let category: string;
let dir: string;

beforeAll(async () => {
  const engine = await openEngine({ data: sampleDir, threads: 1, connections: 1 });
  const [first] = await engine.listOrganizations();
  org = first!.id;
  category = first!.categories[0]!.id;
  await engine.close();
  dir = await tempDir('aea-export-interrupt-');
});

/** A stream of about 100,000 rows: long enough to be stopped midway. */
const big = () => ({ category_id: category, start_date: '2025-10-01', end_date: '2026-11-15', scope: 'all', group_by: ['prompt', 'date'] });
const args = (format: string, out?: string) => ['query', '/v2/reports/visibility/stream', '--data', sampleDir, '--org', org, '--state', join(dir, 'state.duckdb'), '--body', JSON.stringify(big()), '--format', format, ...(out ? ['--out', out] : [])];
const ours = (folder: string) => readdirSync(folder).filter((n) => /^\.?aea-|^chdb-node-/.test(n));

async function until(check: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(25);
  }
}

/** Runs `aea query` with its own empty temp directory, stops it with `signal` once `started` says so. */
async function interrupted(format: string, signal: NodeJS.Signals, started: (tmp: string, folder: string) => boolean) {
  const tmp = join(dir, `tmp-${format}-${signal}`);
  const folder = join(dir, `out-${format}-${signal}`);
  mkdirSync(tmp);
  mkdirSync(folder);
  const out = join(folder, `export.${format}`);
  const child = spawn(process.execPath, [aeaBin, ...args(format, out)], { env: { ...process.env, TMPDIR: tmp }, stdio: 'ignore' });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code, sig) => resolve(code ?? (sig ? -1 : null))));
  await until(() => started(tmp, folder) || child.exitCode !== null);
  expect(child.exitCode, 'the export was still running when stopped').toBeNull();
  child.kill(signal);
  const code = await exited;
  return { code, out, left: { tmp: ours(tmp), folder: readdirSync(folder) } };
}

describe('an interrupted export', () => {
  it('Parquet stopped by SIGINT or SIGTERM: no --out file, no temporary folder or file left, the signal’s exit code', async () => {
    for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
      const r = await interrupted('parquet', signal, (tmp) => ours(tmp).some((n) => n.startsWith('aea-parquet-')));
      expect(r.code).toBe(code);
      expect(existsSync(r.out)).toBe(false);
      expect(r.left).toEqual({ tmp: [], folder: [] });
    }
  });

  it('Arrow stopped by SIGINT midway: no --out file, nothing left beside it', async () => {
    const r = await interrupted('arrow', 'SIGINT', (_, folder) => readdirSync(folder).some((n) => n.startsWith('.aea-out-') && statSync(join(folder, n)).size > 1 << 16));
    expect(r.code).toBe(130);
    expect(existsSync(r.out)).toBe(false);
    expect(r.left).toEqual({ tmp: [], folder: [] });
  });

  it('a failed export leaves the file that was at --out as it was', async () => {
    const out = join(dir, 'kept.csv');
    writeFileSync(out, 'an earlier export\n');
    const failed = await new Promise<number>((resolve) =>
      execFile(process.execPath, [aeaBin, ...args('csv', out).map((a) => (a === JSON.stringify(big()) ? JSON.stringify({ ...big(), limit: 0 }) : a))], (error) => resolve(error ? Number(error.code) : 0)),
    );
    expect(failed).toBe(2);
    expect(readFileSync(out, 'utf8')).toBe('an earlier export\n');
    expect(readdirSync(dir).filter((n) => n.startsWith('.aea-out-'))).toEqual([]);
  });
});

describe('Arrow on standard output', () => {
  it('a whole stream ends with the end-of-stream marker; one cut between batches reads as fewer rows, without it', async () => {
    const bytes = await new Promise<Buffer>((resolve, reject) =>
      execFile(process.execPath, [aeaBin, ...args('arrow')], { encoding: 'buffer', maxBuffer: 1 << 28 }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
    );
    expect(isCompleteArrowStream(bytes)).toBe(true);
    const reader = RecordBatchReader.from(bytes);
    const ends: number[] = [];
    let rows = 0;
    for (const batch of reader) {
      rows += batch.numRows;
      ends.push(rows);
    }
    expect(ends.length).toBeGreaterThan(2);
    const cut = bytes.subarray(0, bytes.byteLength - 8);
    expect(isCompleteArrowStream(cut)).toBe(false);
    let read = 0;
    for (const batch of RecordBatchReader.from(cut)) read += batch.numRows;
    expect(read, 'apache-arrow reads the cut stream without error').toBe(rows);
  });
});

describe('the sweep at start', () => {
  it('removes the temporary paths of processes no longer running, and nothing else', async () => {
    const folder = join(dir, 'sweep');
    mkdirSync(folder);
    const dead = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['-e', '0']);
      child.on('exit', () => resolve(child.pid!));
    });
    const names = [`aea-parquet-${dead}-abc123`, `aea-chdb-${dead}-x`, `.aea-out-${dead}-ff-export.parquet`, `${tempPrefix('parquet')}live`, 'aea-parquet-notapid', 'chdb-node-other', 'unrelated'];
    for (const n of names) mkdirSync(join(folder, n));
    expect(sweepStaleTemp(folder).sort()).toEqual(names.slice(0, 3).sort());
    expect(readdirSync(folder).sort()).toEqual(names.slice(3).sort());
  });
});

