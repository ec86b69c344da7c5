import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { openEngine } from '../src/open-engine.ts';
import { encodeRows } from '../src/formats/encode.ts';
import { formatNames, type FormatName } from '../src/formats/format-names.ts';
import { encodeJson } from '../src/formats/json.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { sseText } from '../src/formats/sse-text.ts';

/**
 * Every format of the same streams, interleaved round by round: wall time, bytes, the largest RSS seen
 * and the longest event-loop delay while encoding. `npx tsx bench/formats.ts [--data DIR] [--rounds N]`.
 */
const { values } = parseArgs({ options: { data: { type: 'string' }, rounds: { type: 'string' } } });
const engine = await openEngine({ data: values.data ?? sampleDir, resultCache: 0 });
const [org] = await engine.listOrganizations();
const category = org!.categories[0]!.id;
const scope = engine.org(org!.id);
const requests = {
  'visibility stream, a year by prompt and day': [
    '/v2/reports/visibility/stream',
    {
      category_id: category,
      start_date: '2025-11-01',
      end_date: '2026-10-31',
      scope: 'all',
      group_by: ['prompt', 'date'],
    },
  ],
  'prompt answers stream, a year (text and lists)': [
    '/v2/prompts/answers/stream',
    { category_id: category, start_date: '2025-11-01', end_date: '2026-10-31' },
  ],
} as const;

interface Run {
  ms: number;
  bytes: number;
  rssMiB: number;
  loopMaxMs: number;
}

async function run(path: string, body: object, format: FormatName): Promise<Run> {
  global.gc?.();
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const started = performance.now();
  let bytes = 0;
  let rss = process.memoryUsage().rss;
  const count = (piece: string | Uint8Array) => {
    bytes += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.byteLength;
    rss = Math.max(rss, process.memoryUsage().rss);
  };
  if (format === 'json') {
    const result = await encodeJson(await scope.invoke('POST', path, { body }));
    if (result.kind === 'json') count(result.json);
    else for await (const piece of sseText(result.events)) count(piece.text);
  } else {
    const rows = await scope.invokeRows('POST', path, { body }, format);
    for await (const piece of encodeRows(rows, format, { duckdb: engine.core.pool })) count(piece);
  }
  delay.disable();
  return { ms: performance.now() - started, bytes, rssMiB: rss / 2 ** 20, loopMaxMs: delay.max / 1e6 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rounds = Number(values.rounds ?? 3);
for (const [name, [path, body]] of Object.entries(requests)) {
  const runs = Object.fromEntries(formatNames.map((f) => [f, [] as Run[]])) as Record<FormatName, Run[]>;
  await run(path, body, 'json');
  for (let r = 0; r < rounds; r++) for (const f of formatNames) runs[f].push(await run(path, body, f));
  const json = median(runs.json.map((x) => x.ms));
  console.log(
    `\n${name}\n\n| format | median ms | × JSON | bytes | max RSS MiB | longest event-loop delay ms |\n|---|---|---|---|---|---|`,
  );
  for (const f of formatNames) {
    const ms = median(runs[f].map((x) => x.ms));
    console.log(
      `| ${f} | ${ms.toFixed(0)} | ${(ms / json).toFixed(2)} | ${runs[f][0]!.bytes} | ${Math.max(...runs[f].map((x) => x.rssMiB)).toFixed(0)} | ${Math.max(...runs[f].map((x) => x.loopMaxMs)).toFixed(0)} |`,
    );
  }
}
await engine.close();
