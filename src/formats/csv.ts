import type { ColumnBatch, ScalarType } from '../query/row-shape.ts';
import { column, parsed, scalarValue, valueText } from '../query/row-json.ts';
import type { RowsResult } from '../query/rows-result.ts';
import { flatColumns, slices, type FlatColumn } from './table-shape.ts';

/**
 * A field as CSV: NULL is an empty field, the empty string `""`, so the two stay apart (PostgreSQL's
 * and DuckDB's convention). A field with a comma, quote or line break is quoted, quotes doubled.
 */
export function csvField(text: string | null): string {
  if (text === null) return '';
  return text === '' || /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const scalarText =
  (type: ScalarType) =>
  (v: unknown): string | null => {
    const s = scalarValue(type, v);
    return s === null ? null : String(s);
  };

/** What a spreadsheet reads as a formula (or a DDE call) at the start of a cell. */
const formulaStart = /^[=+\-@\t\r]/;

/**
 * A text cell a spreadsheet would run as a formula (`=HYPERLINK(...)`, `+`, `-`, `@`, or a tab or CR
 * before one) gets a leading `'`, so Excel, LibreOffice and Sheets show it as text (OWASP's CSV
 * injection advice). Only text cells: numbers, negative ones included, are written as they are.
 */
export function spreadsheetText(text: string | null): string | null {
  return text !== null && formulaStart.test(text) ? `'${text}` : text;
}

export interface CsvOptions {
  /** true: text cells exactly as stored, for machine readers (`csv_raw=true`, `--csv-raw`); default false. */
  readonly raw?: boolean;
}

function cellWriter(c: FlatColumn, options: CsvOptions): (batch: ColumnBatch) => (row: number) => string {
  const json = typeof c.type === 'string' ? undefined : valueText(c.type);
  const plain = json
    ? (v: unknown) => (v === null || v === undefined ? null : json(v))
    : scalarText(c.type as ScalarType);
  const text = c.type === 'text' && !options.raw ? (v: unknown) => spreadsheetText(plain(v)) : plain;
  const dig = (v: unknown): unknown =>
    (c.within ?? []).reduce(
      (o, name) => (o === null || o === undefined ? null : (o as Record<string, unknown>)[name]),
      v,
    );
  const read =
    c.wire === 'json' ? (v: unknown) => text(dig(parsed(v))) : c.within ? (v: unknown) => text(dig(v)) : text;
  return (batch) => {
    const values = column(batch, c.column);
    const guards = c.guards.map((g) => batch.columns[g] ?? []);
    return (i) => (guards.some((g) => g[i] === null || g[i] === undefined) ? '' : csvField(read(values[i])));
  };
}

/**
 * CSV with a header line: one column per leaf of the row, named by its dotted path (`asset.name`,
 * `metrics.visits`, `model.id`); a null object or struct leaves its columns empty. A list is its JSON text.
 * Lines end with `\n`. Rows only: the head does not travel. Text cells are made safe for spreadsheets
 * (`spreadsheetText`) unless `raw`.
 */
export async function* csvText(result: RowsResult, options: CsvOptions = {}): AsyncGenerator<string> {
  const columns = flatColumns(result.shape);
  const cells = columns.map((c) => cellWriter(c, options));
  for await (const part of slices(result)) {
    if (!('batch' in part)) {
      yield columns.map((c) => csvField(c.path)).join(',') + '\n';
      continue;
    }
    const bound = cells.map((cell) => cell(part.batch));
    let out = '';
    for (let i = 0; i < part.batch.length; i++) out += bound.map((cell) => cell(i)).join(',') + '\n';
    yield out;
  }
}
