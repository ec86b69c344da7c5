// Mutation testing (issue 28): `npm run mutation`, never part of `npm test`. docs/security.md has the scores.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  coverageAnalysis: 'perTest',
  // The lead's work shares the 2 cores.
  concurrency: 1,
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  // Static mutants (module-level constants) would rerun every test file each; they are left out and counted apart.
  ignoreStatic: true,
  mutate: [
    'src/query/filter-compiler.ts',
    'src/query/time.ts',
    'src/query/cursor.ts',
    'src/query/flat-filters.ts',
    'src/query/validation.ts',
    'src/formats/csv.ts',
    'src/formats/json.ts',
    'src/reports/extensions/*.ts',
    'src/reports/core/authorize.ts',
    'src/query/dialect.ts',
    'src/query/filter-node.ts',
    'src/query/instants.ts',
    'src/query/metric-sql.ts',
    'src/query/row-json.ts',
    'src/query/rows-result.ts',
    'src/query/schema-types.ts',
    'src/query/loop-turns.ts',
    'src/formats/arrow.ts',
    'src/formats/arrow-schema.ts',
    'src/formats/box-table.ts',
    'src/formats/encode.ts',
    'src/formats/parquet.ts',
  ],
  // Not read by the mutation test files; copying them into the sandbox only costs time.
  ignorePatterns: ['/dist', '/bench/data', '/data/generated', '/examples/*.html', '/coverage'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  timeoutMS: 20_000,
  tempDirName: '.stryker-tmp',
  // No such file, on purpose: Stryker rewrites a tsconfig's relative paths for its sandbox with TypeScript's
  // JS API, which TypeScript 7 no longer has. tsconfig.json needs no rewriting (no extends, no references),
  // and the vitest runner does not type-check.
  tsconfigFile: 'tsconfig.stryker-absent.json',
  // Stryker would add `// @ts-nocheck` to every source in the sandbox; vitest does not type-check, and the
  // generator's fingerprint (src/generate/sample.ts) reads its sources' text, so the prebuilt sample would look stale.
  disableTypeChecks: false,
};
