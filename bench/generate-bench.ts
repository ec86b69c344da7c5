import { execSync } from 'node:child_process';
import { readdirSync, statSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateDataset } from '../src/generate/generate.ts';
import { stderrProgress } from '../src/generate/progress.ts';

/** Generates datasets at the given scales and records time, rows per table and size on disk. */
const { values } = parseArgs({ options: { scale: { type: 'string', multiple: true }, out: { type: 'string' }, seed: { type: 'string' } } });
const scales = (values.scale ?? ['1']).map(Number);
const root = values.out ?? 'bench/data';
const resultsFile = 'bench/results/generate.json';
const results: Record<string, unknown>[] = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : [];

const size = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? size(join(dir, e.name)) : statSync(join(dir, e.name)).size), 0);

for (const scale of scales) {
  const out = join(root, `scale-${scale}`);
  const r = await generateDataset({ out, scale, seed: Number(values.seed ?? 1), progress: stderrProgress(`generate scale ${scale}`) });
  const record = {
    date: new Date().toISOString().slice(0, 10),
    commit: execSync('git rev-parse --short HEAD').toString().trim(),
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB`,
    scale,
    seed: r.seed,
    seconds: Math.round(r.seconds * 10) / 10,
    bytes: size(out),
    rows: r.rows,
  };
  results.splice(0, results.length, ...results.filter((x) => x.scale !== scale), record);
  results.sort((a, b) => Number(a.scale) - Number(b.scale));
  writeFileSync(resultsFile, JSON.stringify(results, null, 2) + '\n');
  process.stderr.write(`scale ${scale}: ${record.seconds} s, ${(record.bytes / 2 ** 20).toFixed(0)} MiB\n`);
}

const tables = Object.keys((results[0]?.rows as Record<string, number>) ?? {});
const md = [
  '# Generator benchmark',
  '',
  'Written by `npm run bench:generate -- --scale 1 --scale 10`. Time is wall-clock for `aea generate` (DuckDB SQL, zstd Parquet).',
  '',
  `| | ${results.map((r) => `scale ${r.scale}`).join(' | ')} |`,
  `|---|${results.map(() => '---:').join('|')}|`,
  `| seconds | ${results.map((r) => r.seconds).join(' | ')} |`,
  `| size on disk (MiB) | ${results.map((r) => (Number(r.bytes) / 2 ** 20).toFixed(1)).join(' | ')} |`,
  ...tables.map((t) => `| ${t} rows | ${results.map((r) => (r.rows as Record<string, number>)[t]!.toLocaleString('en-US')).join(' | ')} |`),
  '',
  `Machine: ${String(results[results.length - 1]?.machine)}. Commits: ${results.map((r) => `scale ${r.scale} at ${String(r.commit)} on ${String(r.date)}`).join('; ')}.`,
  '',
].join('\n');
writeFileSync('bench/GENERATE.md', md);
