import { basename } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The slowest test files, slowest first (about the seconds each took in the last CI run, scaled by what
 * later changes saved). Two workers take files from one queue, so the long ones must start first for both to end
 * together: a long file taken last runs alone on one worker while the other idles. CI clones afresh and
 * has no timings of an earlier run, where vitest's own order falls back to file size. A file not listed
 * (under about 10 s) runs after these, in vitest's order. Only the order depends on this list.
 */
export const slowFiles: readonly (readonly [file: string, seconds: number])[] = [
  ['bench-smoke.test.ts', 75],
  ['backend-agreement-property.test.ts', 60],
  ['backend-every-report.test.ts', 55],
  ['clickhouse-rollups.test.ts', 40],
  ['clickhouse-distributed.test.ts', 40],
  ['durable-rollups.test.ts', 40],
  ['package.test.ts', 38],
  ['injection.test.ts', 37],
  ['clickhouse-load.test.ts', 33],
  ['backend-agreement.test.ts', 33],
  ['cli-rollups.test.ts', 32],
  ['extensions-v2.test.ts', 30],
  ['formats-roundtrip.test.ts', 28],
  ['backend-agreement-extensions.test.ts', 25],
  ['export-interrupt.test.ts', 24],
  ['mcp.test.ts', 20],
  ['clickhouse-shard-down.test.ts', 20],
  ['backend-agreement-tabular.test.ts', 18],
  ['citations-rollup.test.ts', 18],
  ['system-deps.test.ts', 18],
  ['agents.test.ts', 17],
  ['query-beside-server.test.ts', 16],
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
