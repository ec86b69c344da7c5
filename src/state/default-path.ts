import { resolve } from 'node:path';

/** The documented default state file of a dataset: the sibling `<data dir>.state.duckdb`. */
export function defaultStatePath(dataDir: string): string {
  return `${resolve(dataDir)}.state.duckdb`;
}
