import { compileRows } from '../query/row-json.ts';
import type { RowsResult } from '../query/rows-result.ts';
import { slices } from './table-shape.ts';

const lines = { first: '', before: '', after: '\n' };

/**
 * NDJSON: one row per line, each exactly the JSON of that row in the spec's answer (a `data` entry, a
 * `result` event). The head does not travel: every line is a row, so any NDJSON reader sees one table.
 */
export async function* ndjsonText(result: RowsResult): AsyncGenerator<string> {
  const { text } = compileRows(result.shape);
  for await (const part of slices(result)) if ('batch' in part) yield text(part.batch, lines);
}
