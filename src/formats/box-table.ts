import type { RowsResult } from '../query/rows-result.ts';
import { flatColumns, flatText, slices } from './table-shape.ts';

/** At most this many rows are drawn; the rest are counted below the table. */
export const boxTableRows = 1000;
/** A cell wider than this many characters is cut, ending in `…`. */
export const boxCellWidth = 48;

const width = (s: string) => [...s].length;
const cut = (s: string) => (width(s) <= boxCellWidth ? s : `${[...s].slice(0, boxCellWidth - 1).join('')}…`);

/**
 * A result as a table for people at a terminal, drawn as DuckDB's `.mode box` draws one: a header of the
 * CSV's dotted column paths, numbers aligned right, NULL shown as `NULL`, line breaks as `↵`. It holds at
 * most `boxTableRows` rows (the rest are read and counted, not drawn) and cells of `boxCellWidth`
 * characters; it is for reading, not parsing (use csv or ndjson for that).
 */
export async function boxTable(result: RowsResult): Promise<string> {
  const columns = flatColumns(result.shape);
  const readers = columns.map(flatText);
  const numeric = columns.map((c) => c.type === 'integer' || c.type === 'float');
  const rows: string[][] = [];
  let total = 0;
  for await (const part of slices(result)) {
    if (!('batch' in part)) continue;
    const bound = readers.map((r) => r(part.batch));
    for (let i = 0; i < part.batch.length; i++, total++) {
      if (rows.length < boxTableRows)
        rows.push(bound.map((cell) => cut((cell(i) ?? 'NULL').replace(/\r?\n|\r/g, '↵'))));
    }
  }
  const header = columns.map((c) => cut(c.path));
  const widths = header.map((h, j) => Math.max(width(h), ...rows.map((r) => width(r[j]!))));
  const pad = (s: string, j: number, right: boolean) =>
    right ? ' '.repeat(widths[j]! - width(s)) + s : s + ' '.repeat(widths[j]! - width(s));
  const rule = (l: string, m: string, r: string) => l + widths.map((w) => '─'.repeat(w + 2)).join(m) + r;
  const line = (cells: string[], right: (j: number) => boolean) =>
    `│ ${cells.map((s, j) => pad(s, j, right(j))).join(' │ ')} │`;
  const out = [
    rule('┌', '┬', '┐'),
    line(header, () => false),
    rule('├', '┼', '┤'),
    ...rows.map((r) => line(r, (j) => numeric[j]! && r[j] !== 'NULL')),
    rule('└', '┴', '┘'),
  ];
  const shown =
    total > rows.length
      ? `${rows.length.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows shown (--format csv or ndjson for all)`
      : `${total.toLocaleString('en-US')} row${total === 1 ? '' : 's'}`;
  return `${out.join('\n')}\n${shown}\n`;
}
