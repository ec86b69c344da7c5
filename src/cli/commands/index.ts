import type { Command } from './command.ts';

/** A command's one-line summary for `aea --help`, and its module, imported only when the command runs. */
export interface CommandEntry {
  readonly summary: string;
  load(): Promise<Command>;
}

// Lazy so that `aea --help` or `aea orgs` never imports what another command needs (DuckDB, Fastify, the bench).
export const commands: Record<string, CommandEntry> = {
  bench: {
    summary: 'benchmark every report against hand-written DuckDB SQL and peers (see bench/RESULTS.md)',
    load: async () => (await import('./bench.ts')).bench,
  },
  check: {
    summary:
      'list every problem of a dataset folder: missing tables and columns, wrong types, nulls, repeated keys, unsorted files',
    load: async () => (await import('./check.ts')).check,
  },
  clickhouse: {
    summary: 'create the tables for --backend clickhouse on a server or a chdb directory, and load a dataset folder',
    load: async () => (await import('./clickhouse.ts')).clickhouse,
  },
  generate: {
    summary: 'write a deterministic synthetic dataset',
    load: async () => (await import('./generate.ts')).generate,
  },
  sample: {
    summary: 'write the bundled sample dataset (four organizations, Oct 2025 to Nov 2026) into a folder',
    load: async () => (await import('./sample.ts')).sample,
  },
  import: {
    summary: 'make a dataset folder from flat answers (and citations) in CSV, JSON or Parquet (docs/own-data.md)',
    load: async () => (await import('./import.ts')).importCommand,
  },
  append: {
    summary: 'add new fact rows (a day of mentions, bot events…) to a dataset folder as new parts',
    load: async () => (await import('./append.ts')).append,
  },
  orgs: {
    summary: 'print the organizations of a dataset with their categories, domains and assets',
    load: async () => (await import('./orgs.ts')).orgs,
  },
  rollups: {
    summary:
      'build, list and remove the rollups kept on disk for a dataset, so a start reads them instead of building them',
    load: async () => (await import('./rollups.ts')).rollups,
  },
  query: {
    summary: 'print what the REST endpoint would answer for one organization',
    load: async () => (await import('./query.ts')).query,
  },
  start: {
    summary: 'serve the bundled sample on localhost with a fresh demo key (npm start)',
    load: async () => (await import('./start.ts')).start,
  },
  serve: {
    summary: 'serve the REST API over a dataset',
    load: async () => (await import('./serve.ts')).serve,
  },
  keys: {
    summary: 'create, list and revoke API keys (in the state store)',
    load: async () => (await import('./keys.ts')).keys,
  },
  'docs-model': {
    summary: 'render docs/data-model.md from the data contract in src/model',
    load: async () => (await import('./docs-model.ts')).docsModel,
  },
  mcp: {
    summary: 'serve the reports to an AI agent over MCP (stdio)',
    load: async () => (await import('./mcp.ts')).mcp,
  },
};
