import { openEngine } from '../src/open-engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { ndjsonText } from '../src/formats/ndjson.ts';
const engine = await openEngine({ data: sampleDir });
const [o] = await engine.listOrganizations();
const body = { category_id: o!.categories[0]!.id, start_date: '2023-11-20', end_date: '2026-11-20', scope: 'all', group_by: ['date', 'model', 'prompt'] };
const scope = engine.org(o!.id);
let ndjson = 0;
for await (const piece of scope.reports.visibilityStream!(body, { format: 'ndjson', fill: 'zero', compare: 'previous_period', components: true }) as AsyncIterable<string>) ndjson += Buffer.byteLength(piece);
let peak = 0;
const timer = setInterval(() => (peak = Math.max(peak, engine.core.tempDisk.used)), 5);
let parquet = 0;
const t0 = Date.now();
for await (const piece of scope.reports.visibilityStream!(body, { format: 'parquet', fill: 'zero', compare: 'previous_period', components: true }) as AsyncIterable<Uint8Array>) { parquet += piece.byteLength; peak = Math.max(peak, engine.core.tempDisk.used); }
clearInterval(timer);
console.log(JSON.stringify({ ndjsonMiB: ndjson / 2 ** 20, parquetMiB: parquet / 2 ** 20, peakTempMiB: peak / 2 ** 20, parquetSeconds: (Date.now() - t0) / 1000 }));
await engine.close();
