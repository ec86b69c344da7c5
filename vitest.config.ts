import { defineConfig } from 'vitest/config';
import LongestFirst from './test/longest-first.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/remove-temp-dirs.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    isolate: false,
    maxWorkers: 2,
    // The slowest files first, so that the two workers end together (test/longest-first.ts).
    sequence: { sequencer: LongestFirst },
  },
});
