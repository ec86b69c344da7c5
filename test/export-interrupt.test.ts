import { spawn, execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { RecordBatchReader } from 'apache-arrow';
import { beforeAll, describe, expect, it, vi } from 'vitest';

// Each test runs `aea` processes over the sample, tens of seconds apiece on a loaded machine.
vi.setConfig({ testTimeout: 300_000 });
import { openEngine } from '../src/open-engine.ts';
import { isCompleteArrowStream } from '../src/formats/arrow.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { sweepStaleTemp, tempPrefix } from '../src/engine/temp-paths.ts';
import { aeaBin, aeaInProcess } from './helpers/cli.ts';
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
const big = () => ({
  category_id: category,
  start_date: '2025-10-01',
  end_date: '2026-11-15',
  scope: 'all',
  group_by: ['prompt', 'date'],
});
const args = (format: string, out?: string) => [
  'query',
  '/v2/reports/visibility/stream',
  '--data',
  sampleDir,
  '--org',
  org,
  '--state',
  join(dir, 'state.duckdb'),
  '--body',
  JSON.stringify(big()),
  '--format',
  format,
  ...(out ? ['--out', out] : []),
];
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
  const child = spawn(process.execPath, [aeaBin, ...args(format, out)], {
    env: { ...process.env, TMPDIR: tmp },
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code, sig) => resolve(code ?? (sig ? -1 : null))),
  );
  await until(() => started(tmp, folder) || child.exitCode !== null);
  expect(child.exitCode, 'the export was still running when stopped').toBeNull();
  child.kill(signal);
  const code = await exited;
  return { code, out, left: { tmp: ours(tmp), folder: readdirSync(folder) } };
}

describe('an interrupted export', () => {
  it('Parquet stopped by SIGINT or SIGTERM: no --out file, no temporary folder or file left, the signal’s exit code', async () => {
    for (const [signal, code] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
    ] as const) {
      const r = await interrupted('parquet', signal, (tmp) => ours(tmp).some((n) => n.startsWith('aea-parquet-')));
      expect(r.code).toBe(code);
      expect(existsSync(r.out)).toBe(false);
      expect(r.left).toEqual({ tmp: [], folder: [] });
    }
  });

  it('Arrow stopped by SIGINT midway: no --out file, nothing left beside it', async () => {
    const r = await interrupted('arrow', 'SIGINT', (_, folder) =>
      readdirSync(folder).some((n) => n.startsWith('.aea-out-') && statSync(join(folder, n)).size > 1 << 16),
    );
    expect(r.code).toBe(130);
    expect(existsSync(r.out)).toBe(false);
    expect(r.left).toEqual({ tmp: [], folder: [] });
  });

  it('a failed export leaves the file that was at --out as it was', async () => {
    const out = join(dir, 'kept.csv');
    writeFileSync(out, 'an earlier export\n');
    const failed = await new Promise<number>((resolve) =>
      execFile(
        process.execPath,
        [
          aeaBin,
          ...args('csv', out).map((a) => (a === JSON.stringify(big()) ? JSON.stringify({ ...big(), limit: 0 }) : a)),
        ],
        (error) => resolve(error ? Number(error.code) : 0),
      ),
    );
    expect(failed).toBe(2);
    expect(readFileSync(out, 'utf8')).toBe('an earlier export\n');
    expect(readdirSync(dir).filter((n) => n.startsWith('.aea-out-'))).toEqual([]);
  });
});

describe('Arrow on standard output', () => {
  it('a whole stream ends with the end-of-stream marker; one cut between batches reads as fewer rows, without it', async () => {
    const bytes = await new Promise<Buffer>((resolve, reject) =>
      execFile(
        process.execPath,
        [aeaBin, ...args('arrow')],
        { encoding: 'buffer', maxBuffer: 1 << 28 },
        (error, stdout) => (error ? reject(error) : resolve(stdout)),
      ),
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
    const names = [
      `aea-parquet-${dead}-abc123`,
      `aea-chdb-${dead}-x`,
      `.aea-out-${dead}-ff-export.parquet`,
      `${tempPrefix('parquet')}live`,
      'aea-parquet-notapid',
      'chdb-node-other',
      'unrelated',
    ];
    for (const n of names) mkdirSync(join(folder, n));
    expect(sweepStaleTemp(folder).sort()).toEqual(names.slice(0, 3).sort());
    expect(readdirSync(folder).sort()).toEqual(names.slice(3).sort());
  });
});

/** `aea serve` in its own temp directory, a key for it, and a Parquet export under way. */
async function serveExporting(name: string) {
  const tmp = join(dir, `serve-${name}`);
  mkdirSync(tmp);
  const state = join(dir, `serve-${name}.state.duckdb`);
  const created = await aeaInProcess([
    'keys',
    'create',
    '--org',
    org,
    '--name',
    `export ${name}`,
    '--expires',
    '2099-01-31',
    '--data',
    sampleDir,
    '--state',
    state,
  ]);
  const key = (JSON.parse(created.stdout.slice(0, created.stdout.lastIndexOf('}') + 1)) as { key: string }).key;
  const child = spawn(
    process.execPath,
    [aeaBin, 'serve', '--data', sampleDir, '--state', state, '--port', '0', '--quiet', '--rate-limit', '0'],
    { env: { ...process.env, TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const address = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      const m = /on (http:\/\/[^;\s]+)/.exec((out += d.toString()));
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
  const request = fetch(`${address}/v2/reports/visibility/stream`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json', accept: 'application/vnd.apache.parquet' },
    body: JSON.stringify(big()),
  }).then(
    (r) => r.arrayBuffer().then(() => r.status),
    () => 'cut',
  );
  await until(() => ours(tmp).some((n) => n.startsWith('aea-parquet-')) || child.exitCode !== null);
  return { tmp, child, exited, request };
}

describe('a server stopped during an export', () => {
  it('SIGTERM: the server still stops gracefully (exit 0), and its temp directory is left empty', async () => {
    const s = await serveExporting('term');
    expect(s.child.exitCode).toBeNull();
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    await s.request;
    expect(ours(s.tmp)).toEqual([]);
  });

  it('SIGKILL leaves its folders, and the start-up sweep (sweepStaleTemp, which openEngine runs) removes them', async () => {
    const s = await serveExporting('kill');
    s.child.kill('SIGKILL');
    await s.exited;
    await s.request;
    expect(ours(s.tmp).length).toBeGreaterThan(0);
    expect(sweepStaleTemp(s.tmp).length).toBeGreaterThan(0);
    expect(ours(s.tmp)).toEqual([]);
  });
});
