import { rowWriter } from '../query/row-json.ts';
import type { RowsResult } from '../query/rows-result.ts';
import { slices } from './table-shape.ts';

/**
 * NDJSON: one row per line, each exactly the JSON of that row in the spec's answer (a `data` entry, a
 * `result` event). The head does not travel: every line is a row, so any NDJSON reader sees one table.
 */
export async function* ndjsonText(result: RowsResult): AsyncGenerator<string> {
  const write = rowWriter(result.shape);
  for await (const part of slices(result)) {
    if (!('batch' in part)) continue;
    const row = write(part.batch);
    let out = '';
    for (let i = 0; i < part.batch.length; i++) out += row(i) + '\n';
    yield out;
  }
}
