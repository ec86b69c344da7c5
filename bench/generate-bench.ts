import { execSync } from 'node:child_process';
import { readdirSync, statSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateDataset } from '../src/generate/generate.ts';
import { stderrProgress } from '../src/generate/progress.ts';

/** Generates datasets at the given scales and records time, rows per table and size on disk. */
// --render rewrites bench/GENERATE.md from bench/results without generating.
const { values } = parseArgs({
  options: {
    scale: { type: 'string', multiple: true },
    out: { type: 'string' },
    seed: { type: 'string' },
    render: { type: 'boolean' },
  },
});
const scales = values.render ? [] : (values.scale ?? ['1']).map(Number);
const root = values.out ?? 'bench/data';
const resultsFile = 'bench/results/generate.json';
const results: Record<string, unknown>[] = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : [];

const size = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce(
    (n, e) => n + (e.isDirectory() ? size(join(dir, e.name)) : statSync(join(dir, e.name)).size),
    0,
  );

const beforeFile = 'bench/results/generate-before.json';
/** Figures of the generator before issue 27's rewrite, kept beside the current ones. */
const before: Record<string, unknown>[] = existsSync(beforeFile) ? JSON.parse(readFileSync(beforeFile, 'utf8')) : [];

for (const scale of scales) {
  const out = join(root, `scale-${scale}`);
  const loadBefore = loadavg()[0]!;
  const cpu = process.cpuUsage();
  const r = await generateDataset({
    out,
    scale,
    seed: Number(values.seed ?? 1),
    progress: stderrProgress(`generate scale ${scale}`),
  });
  const used = process.cpuUsage(cpu);
  const totalRows = Object.values(r.rows).reduce((a, b) => a + b, 0);
  const record = {
    date: new Date().toISOString().slice(0, 10),
    commit: execSync('git rev-parse --short HEAD').toString().trim(),
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB`,
    scale,
    seed: r.seed,
    seconds: Math.round(r.seconds * 10) / 10,
    rowsPerSecond: Math.round(totalRows / r.seconds),
    cpuSeconds: Math.round((used.user + used.system) / 1e5) / 10,
    // The process's peak so far: run one scale per invocation for that scale's own peak.
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    load: `${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after (1-minute load average, ${cpus().length} cores)`,
    bytes: size(out),
    rows: r.rows,
  };
  results.splice(0, results.length, ...results.filter((x) => x.scale !== scale), record);
  results.sort((a, b) => Number(a.scale) - Number(b.scale));
  writeFileSync(resultsFile, JSON.stringify(results, null, 2) + '\n');
  process.stderr.write(`scale ${scale}: ${record.seconds} s, ${(record.bytes / 2 ** 20).toFixed(0)} MiB\n`);
}

const tables = [...new Set(results.flatMap((r) => Object.keys(r.rows as Record<string, number>)))];
const total = (r: Record<string, unknown>) =>
  Object.values(r.rows as Record<string, number>).reduce((a, b) => a + b, 0);
const cell = (r: Record<string, unknown>, key: string) =>
  r[key] === undefined ? '–' : Number(r[key]).toLocaleString('en-US');
const md = [
  '# Generator benchmark',
  '',
  "Written by `npm run bench:generate -- --scale 1` then `-- --scale 10` (one scale per run, so each peak RSS is its own). Time is wall-clock for `aea generate` (DuckDB SQL, zstd Parquet); rows/s counts every table's rows; CPU seconds are the process's user + system time.",
  '',
  `| | ${results.map((r) => `scale ${r.scale}`).join(' | ')} |`,
  `|---|${results.map(() => '---:').join('|')}|`,
  `| seconds | ${results.map((r) => r.seconds).join(' | ')} |`,
  `| rows/s | ${results.map((r) => cell(r, 'rowsPerSecond')).join(' | ')} |`,
  `| CPU seconds | ${results.map((r) => cell(r, 'cpuSeconds')).join(' | ')} |`,
  `| peak RSS (MiB) | ${results.map((r) => cell(r, 'peakRssMiB')).join(' | ')} |`,
  `| machine load | ${results.map((r) => String(r.load ?? '–')).join(' | ')} |`,
  `| size on disk (MiB) | ${results.map((r) => (Number(r.bytes) / 2 ** 20).toFixed(1)).join(' | ')} |`,
  `| all rows | ${results.map((r) => total(r).toLocaleString('en-US')).join(' | ')} |`,
  ...tables.map(
    (t) =>
      `| ${t} rows | ${results.map((r) => (r.rows as Record<string, number>)[t]?.toLocaleString('en-US') ?? '–').join(' | ')} |`,
  ),
  '',
  `Machine: ${String(results[results.length - 1]?.machine)}. Commits: ${results.map((r) => `scale ${r.scale} at ${String(r.commit)} on ${String(r.date)}`).join('; ')}.`,
  '',
  ...(before.length
    ? [
        '## Before',
        '',
        "The same seed's files are byte-identical before and after (checksums compared at scales 0.02, 0.3 and 1); only the time changed.",
        '',
        '| scale | seconds | rows/s | CPU seconds | peak RSS (MiB) | load | commit | note |',
        '|---:|---:|---:|---:|---:|---|---|---|',
        ...before.map(
          (b) =>
            `| ${b.scale} | ${b.seconds} | ${cell(b, 'rowsPerSecond')} | ${cell(b, 'cpuSeconds')} | ${cell(b, 'peakRssMiB')} | ${String(b.load ?? '–')} | ${String(b.commit)} | ${String(b.note ?? '')} |`,
        ),
        '',
      ]
    : []),
].join('\n');
// Analysis written by hand below the marker survives a rerun.
const marker = '<!-- notes: kept by bench:generate -->';
const previous = existsSync('bench/GENERATE.md') ? readFileSync('bench/GENERATE.md', 'utf8') : '';
const notes = previous.includes(marker) ? previous.slice(previous.indexOf(marker)) : `${marker}\n`;
writeFileSync('bench/GENERATE.md', `${md}\n${notes}`);
