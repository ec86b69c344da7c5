import { reportCases } from '../cases/index.ts';
import type { IterationParams } from './case.ts';
import { iterationParams, type BenchDataset } from './dataset.ts';
import { round } from './measure.ts';
import { sleep, withPeak, type Served } from './serve.ts';
import { slowRead } from './slow-reader.ts';

/**
 * Streams read slowly over HTTP from `aea serve` (issue 13): every stream request of the bench at
 * `bytesPerSecond`, one at a time, with the server's RSS before, at its peak and after the reader left;
 * then `readers` slow readers at once, each on its own key and category, with the server's RSS 10 s
 * after they left.
 */
export interface SlowStream {
  readonly report: string;
  readonly id: string;
  readonly label: string;
  readonly status: number;
  readonly firstRowMs: number | null;
  readonly bytes: number;
  readonly seconds: number;
  readonly rssBaseMiB: number;
  readonly rssPeakMiB: number;
  readonly rssGrowthMiB: number;
  /** Server RSS `settleSeconds` after the reader closed its socket. */
  readonly rssAfterMiB: number;
}

export interface SlowReaders {
  readonly readers: number;
  readonly path: string;
  readonly label: string;
  readonly seconds: number;
  readonly bytesPerSecond: number;
  readonly statuses: readonly number[];
  readonly firstRowMs: readonly (number | null)[];
  readonly bytes: readonly number[];
  readonly rssBaseMiB: number;
  readonly rssPeakMiB: number;
  readonly afterSeconds: number;
  readonly rssAfterMiB: number;
}

export interface SlowOptions {
  readonly bytesPerSecond: number;
  readonly seconds: number;
  readonly settleSeconds: number;
  readonly log: (line: string) => void;
}

/** The categories a report has data in, for reports that name them (shopping, sentiment). */
export type CategoriesOf = (report: string) => readonly string[] | null;

/** An iteration's parameters on categories with the report's data, and the key of their organization. */
export function paramsFor(
  dataset: BenchDataset,
  served: Served,
  days: number,
  i: number,
  categories: readonly string[] | null,
): { p: IterationParams; key: string } {
  const usable = categories ? dataset.categories.filter((c) => categories.includes(c.categoryId)) : dataset.categories;
  const p = iterationParams({ ...dataset, categories: usable.length ? usable : dataset.categories }, days, i);
  return { p, key: served.keys.get(p.organizationId)![0]! };
}

export async function slowStreams(
  dataset: BenchDataset,
  served: Served,
  categoriesOf: CategoriesOf,
  o: SlowOptions,
): Promise<SlowStream[]> {
  const out: SlowStream[] = [];
  for (const rc of reportCases) {
    for (const r of rc.requests(dataset).filter((x) => x.kind === 'stream')) {
      const { p, key } = paramsFor(dataset, served, r.windowDays, 0, categoriesOf(rc.report));
      const base = served.rssMiB();
      const { value, peakMiB } = await withPeak(served.rssMiB, () =>
        slowRead({
          url: served.url,
          key,
          path: rc.streamPath!,
          body: r.body(p),
          bytesPerSecond: o.bytesPerSecond,
          seconds: o.seconds,
        }),
      );
      await sleep(o.settleSeconds * 1000);
      const result: SlowStream = {
        report: rc.report,
        id: r.id,
        label: r.label,
        status: value.status,
        firstRowMs: value.firstRowMs === null ? null : round(value.firstRowMs, 1),
        bytes: value.bytes,
        seconds: round(value.seconds, 1),
        rssBaseMiB: round(base, 1),
        rssPeakMiB: round(peakMiB, 1),
        rssGrowthMiB: round(peakMiB - base, 1),
        rssAfterMiB: round(served.rssMiB(), 1),
      };
      o.log(
        `  slow reader ${rc.report} ${r.id}: ${result.status}, first row ${result.firstRowMs ?? '–'} ms, ${result.bytes} B in ${result.seconds} s, server RSS ${result.rssBaseMiB.toFixed(0)} → ${result.rssPeakMiB.toFixed(0)} MiB`,
      );
      out.push(result);
    }
  }
  return out;
}

/** A key of the organization no earlier client of this run took (serve makes enough per organization). */
export function keyTaker(): (served: Served, organizationId: string) => string {
  const taken = new Map<string, number>();
  return (served, organizationId) => {
    const n = taken.get(organizationId) ?? 0;
    taken.set(organizationId, n + 1);
    const keys = served.keys.get(organizationId)!;
    if (n >= keys.length) throw new Error(`only ${keys.length} keys for organization ${organizationId}`);
    return keys[n]!;
  };
}

/** The stream: every answer of a year, every field, which the engine once buffered whole for a slow reader. */
const answersPath = '/v2/prompts/answers/stream';

export async function slowReaders(
  dataset: BenchDataset,
  served: Served,
  readers: number,
  o: SlowOptions & { readonly afterSeconds: number },
): Promise<SlowReaders> {
  const nextKey = keyTaker();
  const clients = Array.from({ length: readers }, (_, i) => {
    const c = dataset.categories[i % dataset.categories.length]!;
    const p = iterationParams({ ...dataset, categories: [c] }, 365, 0);
    return {
      key: nextKey(served, c.organizationId),
      body: { category_id: p.categoryId, start_date: p.startDate, end_date: p.endDate },
    };
  });
  const base = served.rssMiB();
  const { value, peakMiB } = await withPeak(served.rssMiB, () =>
    Promise.all(
      clients.map((c) =>
        slowRead({
          url: served.url,
          key: c.key,
          path: answersPath,
          body: c.body,
          bytesPerSecond: o.bytesPerSecond,
          seconds: o.seconds,
        }),
      ),
    ),
  );
  await sleep(o.afterSeconds * 1000);
  const result: SlowReaders = {
    readers,
    path: answersPath,
    label: 'v2 prompt answers stream, 365 d, every field, one category per reader',
    seconds: o.seconds,
    bytesPerSecond: o.bytesPerSecond,
    statuses: value.map((v) => v.status),
    firstRowMs: value.map((v) => (v.firstRowMs === null ? null : round(v.firstRowMs, 1))),
    bytes: value.map((v) => v.bytes),
    rssBaseMiB: round(base, 1),
    rssPeakMiB: round(peakMiB, 1),
    afterSeconds: o.afterSeconds,
    rssAfterMiB: round(served.rssMiB(), 1),
  };
  o.log(
    `  ${readers} slow readers: statuses ${result.statuses.join(',')}, server RSS ${result.rssBaseMiB.toFixed(0)} → peak ${result.rssPeakMiB.toFixed(0)} → ${result.rssAfterMiB.toFixed(0)} MiB ${o.afterSeconds} s after`,
  );
  return result;
}
