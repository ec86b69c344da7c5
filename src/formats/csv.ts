import type { ColumnBatch, RowShape, ScalarType } from '../query/row-shape.ts';
import { column, dayText, parsed, scalarValue, valueText } from '../query/row-json.ts';
import type { RowsResult } from '../query/rows-result.ts';
import { boundedMemo } from '../query/bounded-memo.ts';
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

/** A cell's text through the shape's value type, the slow way: structs, lists, JSON wire, unexpected JS types. */
function cellText(c: FlatColumn, options: CsvOptions): (v: unknown) => string {
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
  return (v) => csvField(read(v));
}

/** The most distinct texts a CSV writer's cache of repeated cells keeps; past it the cache starts again. */
export const repeatedCellsSize = 4096;

const cached = (write: (v: string) => string): ((v: string) => string) =>
  boundedMemo(repeatedCellsSize, (v: string) => v, write);

type CsvRows = (batch: ColumnBatch) => string;

/**
 * A shape's CSV lines compiled once (per shape and `raw`): one generated function whose loop reads each
 * column array once and writes each cell with its type's formatting inline. Numbers, days, instants and
 * booleans never need quoting, so only text cells pass through `csvField`. The source holds column
 * indexes only; values are read at run time.
 */
function compileCsv(columns: readonly FlatColumn[], options: CsvOptions): CsvRows {
  const names: string[] = [];
  const values = new Set<string>();
  const col = (name: string, value = true) => {
    if (value) values.add(name);
    let k = names.indexOf(name);
    if (k < 0) k = names.push(name) - 1;
    return `c${k}`;
  };
  const slow: ((v: unknown) => string)[] = [];
  const repeated: ((v: string) => string)[] = [];
  const textCell = options.raw ? (v: string) => csvField(v) : (v: string) => csvField(spreadsheetText(v));
  const cells = columns.map((c) => {
    const v = `${col(c.column)}[i]`;
    const s = `h.slow[${slow.push(cellText(c, options)) - 1}]`;
    let cell: string;
    if (c.wire === 'json' || c.within || typeof c.type !== 'string') cell = `${s}(${v})`;
    else {
      const fast = {
        text: `typeof v === 'string' ? ${c.wire === 'dictionary' ? `h.repeated[${repeated.push(cached(textCell)) - 1}](v)` : 'h.text(v)'}`,
        boolean: `typeof v === 'boolean' ? (v ? 'true' : 'false')`,
        // TRICKY: `v - v === 0` holds for finite numbers only: NaN and ±Infinity are empty cells, as null is.
        integer: `typeof v === 'number' ? (v - v === 0 ? '' + v : '') : typeof v === 'bigint' ? '' + Number(v)`,
        float: `typeof v === 'number' ? (v - v === 0 ? '' + v : '') : typeof v === 'bigint' ? '' + Number(v)`,
        date: `v instanceof Date ? h.day(v)`,
        instant: `v instanceof Date ? h.second(v)`,
      }[c.type];
      cell = `((v = ${v}) == null ? '' : ${fast} : ${s}(v))`;
    }
    if (c.guards.length === 0) return cell;
    return `(${c.guards.map((g) => `${col(g, false)}[i] == null`).join(' || ')} ? '' : ${cell})`;
  });
  // A guard column the rows lack reads as all null (its object empty); a value column the rows lack is the rows query's bug.
  const bind = names.map(
    (name, k) =>
      `const c${k} = ${values.has(name) ? `h.column(batch, ${JSON.stringify(name)})` : `batch.columns[${JSON.stringify(name)}] ?? h.none`};`,
  );
  const helpers = {
    slow,
    repeated,
    text: textCell,
    day: dayText,
    second: (d: Date) => `${d.toISOString().slice(0, 19)}Z`,
    column,
    none: [],
  };
  const lines = cells.length > 0 ? cells.join(" + ',' + ") : "''";
  // TRICKY: compiled with the Function constructor from the shape's declaration; values are only read from the bound columns.
  const write = new Function(
    'h',
    `'use strict';
return function csvLines(batch) {
${bind.join('\n')}
const out = new Array(batch.length);
let v;
for (let i = 0; i < batch.length; i++) out[i] = ${lines};
return out.length === 0 ? '' : out.join('\\n') + '\\n';
};`,
  )(helpers) as CsvRows;
  return write;
}

/** Compiled CSV writers by shape and `raw`, at most `compiledCsvShapes`, the oldest dropped first. */
const compiled = new Map<string, CsvRows>();
export const compiledCsvShapes = 256;

function csvRows(shape: RowShape, columns: readonly FlatColumn[], options: CsvOptions): CsvRows {
  const key = `${options.raw === true}:${JSON.stringify(shape)}`;
  let rows = compiled.get(key);
  if (!rows) {
    rows = compileCsv(columns, options);
    if (compiled.size >= compiledCsvShapes) compiled.delete(compiled.keys().next().value!);
    compiled.set(key, rows);
  }
  return rows;
}

/**
 * CSV with a header line: one column per leaf of the row, named by its dotted path (`asset.name`,
 * `metrics.visits`, `model.id`); a null object or struct leaves its columns empty. A list is its JSON text.
 * Lines end with `\n`. Rows only: the head does not travel. Text cells are made safe for spreadsheets
 * (`spreadsheetText`) unless `raw`.
 */
export async function* csvText(result: RowsResult, options: CsvOptions = {}): AsyncGenerator<string> {
  const columns = flatColumns(result.shape);
  const lines = csvRows(result.shape, columns, options);
  for await (const part of slices(result))
    yield 'batch' in part ? lines(part.batch) : columns.map((c) => csvField(c.path)).join(',') + '\n';
}
