import { basename } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The slowest test files, slowest first, with the seconds each took in a whole `npm test` run on the 2-core
 * machine (2026-12-08, both workers busy). Two workers take
 * files from one queue, so the long ones must start first for both to end together: a long file taken last
 * runs alone on one worker while the other idles. CI clones afresh and has no timings of an earlier run,
 * where vitest's own order falls back to file size. A file not listed (under 10 s) runs after these,
 * in vitest's order. Only the order depends on this list.
 */
export const slowFiles: readonly (readonly [file: string, seconds: number])[] = [
  ['bench-smoke.test.ts', 76],
  ['package.test.ts', 45],
  ['backend-agreement-property.test.ts', 44],
  ['durable-rollups.test.ts', 43],
  ['backend-every-report.test.ts', 42],
  ['cli-rollups.test.ts', 41],
  ['clickhouse-rollups.test.ts', 37],
  ['injection.test.ts', 32],
  ['clickhouse-distributed.test.ts', 27],
  ['clickhouse-load.test.ts', 27],
  ['generate.test.ts', 26],
  ['formats-roundtrip.test.ts', 24],
  ['mcp.test.ts', 18],
  ['backend-agreement-extensions.test.ts', 18],
  ['extensions-v2.test.ts', 16],
  ['query-beside-server.test.ts', 16],
  ['check.test.ts', 16],
  ['clickhouse-shard-down.test.ts', 15],
  ['agents.test.ts', 15],
  ['backend-agreement.test.ts', 15],
  ['optional-tables.test.ts', 15],
  ['answers-rollup.test.ts', 14],
  ['export-interrupt.test.ts', 14],
  ['backend-agreement-tabular.test.ts', 11],
  ['http-docs.test.ts', 10],
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
