import { reportFloors } from '../floors/index.ts';
import type { ScaleResult } from './bench.ts';
import { f1, int } from './format.ts';
import type { HttpSide, VisibilityHttp } from './floor-http.ts';
import type { ServerRuns } from './server-runs.ts';

/** The parts of bench/RESULTS.md added with issues 13 and 14: the server runs and the floor rollups. */

export function serverSection(s: ServerRuns | null | undefined): string[] {
  if (!s) return [];
  const h = s.visibilityHttp;
  const side = (name: string, x: typeof h.engine) =>
    `| ${name} | ${int(x.requests)} | ${f1(x.requestsPerSecond)} | ${x.p50Ms} | ${x.p99Ms} | ${x.errors} | ${x.rssPeakMiB.toFixed(0)} MiB |`;
  const r = s.slowReaders;
  const m = s.mixed;
  const lat = (name: string, l: typeof m.light) =>
    `| ${name} | ${l.n} | ${f1(l.p50Ms)} | ${f1(l.p99Ms)} | ${f1(l.maxMs)} | ${l.errors} |`;
  return [
    ...visibilityLines(h, side),
    '',
    `**${r.readers} slow readers on ${r.readers} keys**: ${r.label} (\`${r.path}\`), each read at ${(r.bytesPerSecond / 1024).toFixed(0)} KB/s for ${r.seconds} s over its own socket. Server RSS ${r.rssBaseMiB.toFixed(0)} MiB before, ${r.rssPeakMiB.toFixed(0)} MiB at the peak, ${r.rssAfterMiB.toFixed(0)} MiB ${r.afterSeconds} s after they left; statuses ${r.statuses.join(', ')}; first result rows at ${r.firstRowMs.map((x) => (x === null ? '–' : x.toFixed(0))).join(', ')} ms; ${r.bytes.map((b) => (b / 1024).toFixed(0)).join(', ')} KiB read.`,
    '',
    `**Mixed load**: ${m.heavy.length} concurrent heavy requests (${m.heavyLabel}), each on its own key and category: ${m.heavy.map((x) => `${x.status} in ${(x.ms / 1000).toFixed(1)} s`).join(', ')}; meanwhile \`GET ${m.lightPath}\` went out every 50 ms (an open loop: a stall counts for every request it delays):`,
    '',
    '| light requests | n | p50 ms | p99 ms | max ms | errors |',
    '|---|---:|---:|---:|---:|---:|',
    lat('alone (baseline)', m.baseline),
    lat(`with ${m.heavy.length} heavy`, m.light),
    '',
    `**PATCH** of ${s.patch.newTags} new tags over ${s.patch.prompts} prompts: ${s.patch.status} in ${f1(s.patch.ms)} ms (${s.patch.tagsCreated ?? '–'} created); \`/healthz\` every 10 ms meanwhile: n ${s.patch.probe.n}, p99 ${f1(s.patch.probe.p99Ms)} ms, max ${f1(s.patch.probe.maxMs)} ms.`,
    '',
  ];
}

/**
 * The visibility request over HTTP: since issue 23 at 1, 16 and 64 connections beside a bare node:http
 * server around the library's call; a run recorded before it has one level and no such server.
 */
function visibilityLines(h: VisibilityHttp, side: (name: string, x: HttpSide) => string): string[] {
  if (!h.levels)
    return [
      `**Server runs** (\`aea serve\`, rate limit off, a fresh server per part). ${h.label} at ${h.connections} connections for ${h.seconds} s, cycling the organization's categories, against \`aea serve\` and against a bare node:http server around the expert floor (bench/floors/http-server.ts: its own DuckDB, 2 threads, 4 connections; started in ${f1(h.floorStartMs)} ms; both answered the same bodies first):`,
      '',
      '| server | requests | req/s | p50 ms | p99 ms | errors | RSS peak |',
      '|---|---:|---:|---:|---:|---:|---:|',
      side('aea serve', h.engine),
      side('floor server', h.floor),
    ];
  return [
    `**Server runs** (\`aea serve\`, rate limit off, result cache off, a fresh server per part). ${h.label} for ${h.seconds} s per server and connection count, cycling the organization's categories, against \`aea serve\`, a bare node:http server around the library's own call (bench/bare-server.ts: the same engine through \`engine.org(id).reports.visibility\`, \`JSON.stringify\` of the answer; started in ${f1(h.bareStartMs ?? NaN)} ms) and a bare node:http server around the expert floor (bench/floors/http-server.ts: its own DuckDB, 2 threads, 4 connections; started in ${f1(h.floorStartMs)} ms); all three answered the same bodies first. At each connection count the three run one after the other. Server CPU is the process's user and system time over the run (every thread, DuckDB's included) per answered request, from /proc/<pid>/stat. \`aea serve\` against the bare library is the service's own cost; the bare library against the floor is the report's:`,
    '',
    '| connections | server | requests | req/s | p50 ms | p99 ms | errors | RSS peak | server CPU ms / request |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|',
    ...h.levels.flatMap((l) =>
      (
        [
          ['aea serve', l.engine],
          ['bare library', l.bare],
          ['floor server', l.floor],
        ] as const
      ).map(([name, x]) => `| ${l.connections} ${side(name, x)} ${x.cpuMsPerRequest?.toFixed(2) ?? '–'} |`),
    ),
  ];
}

/** The floor rollups of every report: what a request may read instead of the facts, built before timing. */
export function floorRollupsSection(runs: readonly ScaleResult[]): string[] {
  const setup = (report: string) => runs.map((r) => r.floorSetupMs?.[report]).find((x) => x !== undefined);
  return [
    '## Floor rollups',
    '',
    "The expert floors (bench/floors) read these pre-aggregated tables, built on the engine's DuckDB instance before any timing (the engine's own rollups are built before timing too) and dropped after the report. Every measure is a count or a sum, at a grain holding every key the requests group or filter by, so answers re-aggregate exactly; keys are stored as DuckDB ENUMs over the dimension's ids (read as small integer codes) and days as day numbers. Dimensions nobody edits (models, regions, brands, products, clusters, channels, videos) are read once; editable ones (prompts, topics, tags, personas) per request. The engine may keep the same rollups; where a key comes from an editable row (a prompt's topic) the rollup must be rebuilt when it changes.",
    '',
    '| report | rollup | grain | measures | source | read by | built in (ms, with its enums) |',
    '|---|---|---|---|---|---|---:|',
    ...reportFloors.flatMap((f) =>
      (f.rollups ?? []).map(
        (r) =>
          `| ${f.report} | \`${r.name}\` | ${r.grain} | ${r.measures} | ${r.source} | ${r.readBy ?? 'every request'} | ${f1(setup(f.report))} |`,
      ),
    ),
    '',
  ];
}
