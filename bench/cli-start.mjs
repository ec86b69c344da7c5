// Times an `aea` bin as a script calls it: `--help`, then a 30-day visibility page of the dataset's first
// organization and category, each in a fresh process, N times (default 10), beside Node's own start.
// Plain Node, so it runs against the installed package as well as a clone:
//   node bench/cli-start.mjs node_modules/.bin/aea data/sample [N]
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';

const [bin, data, times = '10'] = process.argv.slice(2);
if (!bin || !data) throw new Error('usage: node bench/cli-start.mjs AEA_BIN DATA_DIR [N]');
const n = Number(times);

function timed(file, args) {
  const seconds = [];
  for (let i = 0; i < n; i++) {
    const started = process.hrtime.bigint();
    execFileSync(file, args, { stdio: 'ignore' });
    seconds.push(Number(process.hrtime.bigint() - started) / 1e9);
  }
  seconds.sort((a, b) => a - b);
  const at = (q) => seconds[Math.min(n - 1, Math.floor(q * n))].toFixed(3);
  return `min ${at(0)} s, median ${at(0.5)} s, max ${at(1)} s`;
}

const [org] = JSON.parse(execFileSync(bin, ['orgs', '--data', data], { encoding: 'utf8' }));
const body = JSON.stringify({ category_id: org.categories[0].id, start_date: '2026-10-01', end_date: '2026-10-30', limit: 10 });
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`load average before: ${load()}`);
console.log(`node -e 0         ${timed(process.execPath, ['-e', '0'])}`);
console.log(`aea --help        ${timed(bin, ['--help'])}`);
console.log(`aea query (page)  ${timed(bin, ['query', '/v2/reports/visibility', '--data', data, '--org', org.id, '--body', body])}`);
console.log(`load average after: ${load()}`);
