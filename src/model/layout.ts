import { tables, type TableName } from './tables.ts';

/**
 * A dataset is a folder holding, per table, either `<table>.parquet` or a folder `<table>/` of
 * `*.parquet` parts read in name order. Large fact tables are written as parts, one per tenant scope (above scale
 * 10, one per run of days of a scope: `slicesOf` in src/generate/jobs.ts).
 */
export const partitionedBy: Partial<Record<TableName, 'category' | 'organization'>> = {
  executions: 'category',
  mentions: 'category',
  citations: 'category',
  sentiments: 'category',
  fanouts: 'category',
  shopping_results: 'category',
  claim_occurrences: 'category',
  bot_events: 'organization',
  referral_visits: 'organization',
};

export const partFileName = (index: number) => `part-${String(index).padStart(4, '0')}.parquet`;

export const manifestFileName = 'dataset.json';

export function columnList(table: TableName): string[] {
  return Object.keys(tables[table].columns);
}
