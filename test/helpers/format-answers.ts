import { Table, type RecordBatch } from 'apache-arrow';
import { expect } from 'vitest';
import type { OrgScope } from '../../src/library/org-scope.ts';
import type { TableFormat } from '../../src/formats/format-names.ts';
import {
  arrowOf,
  arrowRead,
  asJson,
  csvTable,
  expectedCell,
  ndjsonRows,
  parquetRead,
  saved,
  type Answer,
  type JsonRow,
  type TypedRead,
} from './formats.ts';

export type FormatOutputs = Record<TableFormat, Uint8Array | string | TypedRead>;

/**
 * Every format of one request against its JSON answer, each read back by an independent reader
 * (DuckDB for NDJSON, CSV and Parquet; apache-arrow for Arrow IPC); files are written to `dir`.
 */
export async function expectSameAnswer(
  dir: string,
  name: string,
  answer: Answer,
  outputs: FormatOutputs,
  headOf: (h: JsonRow) => JsonRow = (h) => h,
): Promise<void> {
  expect(answer.rows.length, 'the request answers rows').toBeGreaterThan(0);
  const file = (format: TableFormat) =>
    saved(dir, `${name}-${format}-${Math.random().toString(36).slice(2)}`, outputs[format] as Uint8Array | string);

  expect(await ndjsonRows(await file('ndjson'))).toEqual(answer.rows);

  const csv = await csvTable(await file('csv'));
  const query = (answer.head.query ?? {}) as Record<string, string[]>;
  const items = { metrics: query.metrics ?? [], dimensions: query.dimensions ?? [] };
  expect([...new Set(csv.columns.map((p) => p.split('.')[0]))]).toEqual(Object.keys(answer.rows[0]!));
  expect(csv.cells).toEqual(answer.rows.map((row) => csv.columns.map((path) => expectedCell(row, path, items))));

  const arrow =
    typeof outputs.arrow === 'object' && 'rows' in outputs.arrow
      ? outputs.arrow
      : arrowRead(outputs.arrow as Uint8Array);
  const parquet = await parquetRead(await file('parquet'));
  // The fingerprint names the format too (src/reports/extensions/fingerprint.ts), so each head carries its own.
  const { fingerprint: _json, ...jsonHead } = answer.head;
  for (const read of [arrow, parquet]) {
    const { fingerprint, ...head } = read.head;
    expect(fingerprint === undefined || fingerprint !== _json).toBe(true);
    expect(headOf(head)).toEqual(headOf(jsonHead));
    expect(read.rows.map((r, i) => asJson(r, answer.rows[i]))).toEqual(answer.rows);
  }
}

/** A library call's JSON answer and its four table formats (a stream's when `library` names one). */
export async function libraryOutputs(
  org: OrgScope,
  library: string,
  body: JsonRow,
): Promise<{ answer: Answer; outputs: FormatOutputs }> {
  const call = library.endsWith('Stream') ? undefined : org.report(library);
  if (call) {
    const page = (await call(body)) as { info: JsonRow; data: JsonRow[] };
    return {
      answer: { head: page.info, rows: page.data },
      outputs: {
        ndjson: await call(body, { format: 'ndjson' }),
        csv: await call(body, { format: 'csv' }),
        arrow: arrowOf(await call(body, { format: 'arrow' })),
        parquet: await call(body, { format: 'parquet' }),
      },
    };
  }
  const stream = org.stream(library.replace(/Stream$/, ''));
  const events: JsonRow[] = [];
  for await (const e of stream(body)) events.push(e.data);
  const text = async (format: 'csv' | 'ndjson') => {
    let out = '';
    for await (const piece of stream(body, { format })) out += piece;
    return out;
  };
  const batches: RecordBatch[] = [];
  for await (const b of stream(body, { format: 'arrow' })) batches.push(b);
  const bytes: Uint8Array[] = [];
  for await (const b of stream(body, { format: 'parquet' })) bytes.push(b);
  return {
    answer: { head: events[0]!, rows: events.slice(1) },
    outputs: {
      ndjson: await text('ndjson'),
      csv: await text('csv'),
      arrow: arrowOf(new Table(batches)),
      parquet: Buffer.concat(bytes),
    },
  };
}
