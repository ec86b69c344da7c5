import { basename } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The slowest test files, slowest first, with about half the seconds each took in a whole `npm test` run
 * on the 2-core machine at load average 7.5 (bench/RESULTS.md), so about a quiet run's. Two workers take
 * files from one queue, so the long ones must start first for both to end together: a long file taken last
 * runs alone on one worker while the other idles. CI clones afresh and has no timings of an earlier run,
 * where vitest's own order falls back to file size. A file not listed (under about 15 s) runs after these,
 * in vitest's order. Only the order depends on this list.
 */
export const slowFiles: readonly (readonly [file: string, seconds: number])[] = [
  ['bench-smoke.test.ts', 63],
  ['package.test.ts', 62],
  ['injection.test.ts', 59],
  ['backend-agreement-property.test.ts', 51],
  ['backend-every-report.test.ts', 44],
  ['backend-agreement-extensions.test.ts', 40],
  ['formats-roundtrip.test.ts', 33],
  ['backend-agreement.test.ts', 32],
  ['clickhouse-load.test.ts', 31],
  ['cli-rollups.test.ts', 30],
  ['clickhouse-rollups.test.ts', 29],
  ['mcp.test.ts', 27],
  ['durable-rollups.test.ts', 26],
  ['backend-agreement-tabular.test.ts', 25],
  ['clickhouse-distributed.test.ts', 24],
  ['extensions-v2.test.ts', 24],
  ['citations-rollup.test.ts', 24],
  ['clickhouse-shard-down.test.ts', 23],
  ['system-deps.test.ts', 22],
  ['agents.test.ts', 21],
  ['query-beside-server.test.ts', 20],
  ['optional-tables.test.ts', 18],
  ['stream-date-windows.test.ts', 18],
  ['export-interrupt.test.ts', 17],
  ['shopping-rollup.test.ts', 15],
];

const seconds = new Map(slowFiles.map(([file, s]) => [file, s]));

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const known = (f: TestSpecification) => seconds.get(basename(f.moduleId)) ?? -1;
    // Array.prototype.sort is stable: unlisted files keep vitest's order among themselves.
    return ordered.sort((a, b) => known(b) - known(a));
  }
}
