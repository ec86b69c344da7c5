import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import base from './vitest.config.ts';

/**
 * Mutation mode (stryker.config.mjs, `npm run mutation`): the fast in-process test files that cover the
 * mutated modules (no chdb, which crashes in the worker thread Stryker runs tests in; no Chromium or Jupyter, no bench smoke, no crash trials), over data/sample
 * built beforehand from the clean sources, fastest files first. The normal suite (vitest.config.ts) is unchanged.
 */
export const mutationTestFiles = [
  'test/row-json-text.test.ts',
  'test/box-table.test.ts',
  'test/dialect.test.ts',
  'test/metric-values.test.ts',
  'test/instant-parts.test.ts',
  'test/arrow-values.test.ts',
  'test/parquet-parts.test.ts',
  'test/schema-types.test.ts',
  'test/filter-tree.test.ts',
  'test/loop-budget.test.ts',
  'test/json-only.test.ts',
  'test/validation-detail.test.ts',
  'test/text-order.test.ts',
  'test/regex-check.test.ts',
  'test/format-choice.test.ts',
  'test/sse-text.test.ts',
  'test/cached-answer.test.ts',
  'test/sql-render.test.ts',
  'test/table-shape.test.ts',
  'test/filter-fields.test.ts',
  'test/compared-answer.test.ts',
  'test/cursor-codec.test.ts',
  'test/extension-options.test.ts',
  'test/filter-issues.test.ts',
  'test/json-framing.test.ts',
  'test/csv-cells.test.ts',
  'test/date-windows.test.ts',
  'test/calendar-examples.test.ts',
  'test/bounded-memo.test.ts',
  'test/loop-turns.test.ts',
  'test/row-json.test.ts',
  'test/golden.test.ts',
  'test/validation-echo.test.ts',
  'test/shopping-422.test.ts',
  'test/visibility-422.test.ts',
  'test/factcheck-claims-422.test.ts',
  'test/more-v2-422.test.ts',
  'test/tabular-422.test.ts',
  'test/channels-422.test.ts',
  'test/resources.test.ts',
  'test/tabular-golden.test.ts',
  'test/instants.test.ts',
  'test/formats-encoders.test.ts',
  'test/filter.test.ts',
  'test/row-writers.test.ts',
  'test/golden-more-v2.test.ts',
  'test/golden-v2-reports.test.ts',
  'test/csv-formula.test.ts',
  'test/bounds-at-limit.test.ts',
  'test/tenant-isolation.test.ts',
  'test/extensions-fill.test.ts',
  'test/extensions-components.test.ts',
  'test/tabular-filters.test.ts',
  'test/extensions-combined.test.ts',
  'test/extensions-compare.test.ts',
  'test/extensions.test.ts',
  'test/extensions-v2.test.ts',
];

/**
 * The files in the list's order, fastest first: Stryker stops at a mutant's first failing test, so a
 * mutant a unit test kills costs milliseconds.
 */
class ListedOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => mutationTestFiles.findIndex((name) => f.moduleId.endsWith(name));
    return [...files].sort((a, b) => rank(a) - rank(b));
  }
}

// Spread, not mergeConfig: that would append these lists to the base's (every test file, its setup).
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: mutationTestFiles,
    globalSetup: ['test/mutation-setup.ts'],
    sequence: { sequencer: ListedOrder },
  },
});
