import type { RecordBatch, Table } from 'apache-arrow';
import { encodeRows, rowsFor, type EncodeOptions } from '../formats/encode.ts';
import { formats, type FormatName } from '../formats/format-names.ts';
import { pageObject, streamObjects } from '../formats/json.ts';
import type { EndpointResult } from '../reports/endpoint.ts';

export type JsonObject = Record<string, unknown>;

/**
 * What a report call takes besides its body. Options travel outside the spec's request body, so the body
 * stays exactly the spec's; later extensions join here.
 */
/** `signal` stops the call: its statement is interrupted and the call rejects with the signal's reason. */
export interface CallOptions {
  readonly signal?: AbortSignal;
}

/** The report extensions (docs/extensions.md), the same as the REST service's query parameters. */
export interface ExtensionOptions {
  /** The normalized request, plan, SQL, rollups and DuckDB's EXPLAIN instead of the answer; nothing is read. */
  readonly explain?: boolean;
  /** `zero`: every time bucket of the window for every group key seen, zero counts and null ratios where no row was (tabular reports with the date dimension). */
  readonly fill?: 'zero';
  /** `previous_period`, `previous_year` or `START..END`: each metric with its previous value and change (tabular reports). */
  readonly compare?: string;
  /** Each ratio metric followed by its numerator and denominator (v1 visibility, query fan-outs). */
  readonly components?: boolean;
}

export interface ReportOptions extends CallOptions, ExtensionOptions {
  /** `json` (default): the spec's answer; `arrow`: an Arrow Table (a stream: RecordBatches); `csv` and `ndjson` text; `parquet` bytes. */
  readonly format?: FormatName;
  /** CSV only: text cells exactly as stored, without the guard against spreadsheet formulas (docs/security.md). */
  readonly csvRaw?: boolean;
}

/** The extension options as the query parameters every face passes (parsed in src/reports/extensions/options.ts). */
export function extensionQuery(options: ExtensionOptions): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, v] of Object.entries(options)) if (extensionKeys.has(name) && v !== undefined) query[name] = typeof v === 'string' ? v : JSON.stringify(v);
  return query;
}

const extensionKeys = new Set<string>(['explain', 'fill', 'compare', 'components'] satisfies (keyof ExtensionOptions)[]);

type With<F extends FormatName> = ReportOptions & { readonly format: F };

/** `reports.<name>(body, options?)`: the page as `{info, data}`, or in the format asked for. */
export interface ReportCall {
  (body?: object, options?: ReportOptions & { readonly format?: 'json' }): Promise<JsonObject>;
  (body: object | undefined, options: With<'arrow'>): Promise<Table>;
  (body: object | undefined, options: With<'csv' | 'ndjson'>): Promise<string>;
  (body: object | undefined, options: With<'parquet'>): Promise<Uint8Array>;
  (body: object | undefined, options: ReportOptions): Promise<JsonObject | Table | string | Uint8Array>;
}

/** `reports.<name>Stream(body, options?)`: `{event, data}` events, or the rows in the format asked for, piece by piece. */
export interface StreamCall {
  (body?: object, options?: ReportOptions & { readonly format?: 'json' }): AsyncIterable<{ event: string; data: JsonObject }>;
  (body: object | undefined, options: With<'arrow'>): AsyncIterable<RecordBatch>;
  (body: object | undefined, options: With<'csv' | 'ndjson'>): AsyncIterable<string>;
  (body: object | undefined, options: With<'parquet'>): AsyncIterable<Uint8Array>;
  (body: object | undefined, options: ReportOptions): AsyncIterable<{ event: string; data: JsonObject } | RecordBatch | string | Uint8Array>;
}

export function parseJson(result: EndpointResult): JsonObject {
  if (result.kind !== 'json') throw new Error('expected a JSON result');
  return JSON.parse(result.json) as JsonObject;
}

/** A page's answer in a format: JS objects, an Arrow Table, text or bytes. */
export async function pageAs(result: EndpointResult, format: FormatName, path: string, options: EncodeOptions): Promise<JsonObject | Table | string | Uint8Array> {
  if (format === 'json') return result.kind === 'rows' ? pageObject(result) : parseJson(result);
  const rows = rowsFor(result, format, path);
  // apache-arrow loads with the first Arrow answer (some 160 modules).
  if (format === 'arrow') return (await import('../formats/arrow.ts')).arrowTable(rows);
  const pieces: (string | Uint8Array)[] = [];
  for await (const piece of encodeRows(rows, format, options)) pieces.push(piece);
  return formats[format].binary ? new Uint8Array(Buffer.concat(pieces as Uint8Array[])) : pieces.join('');
}

/** A stream's answer in a format: `{event, data}` objects, Arrow record batches, text or byte pieces. */
export async function* streamAs(result: EndpointResult, format: FormatName, path: string, options: EncodeOptions): AsyncGenerator<{ event: string; data: JsonObject } | RecordBatch | string | Uint8Array> {
  if (format !== 'json') {
    const rows = rowsFor(result, format, path);
    return yield* format === 'arrow' ? (await import('../formats/arrow.ts')).arrowBatches(rows) : encodeRows(rows, format, options);
  }
  if (result.kind === 'rows') return yield* streamObjects(result);
  if (result.kind === 'json') return yield { event: 'explain', data: parseJson(result) };
  if (result.kind !== 'stream') throw new Error(`${path} is not a stream`);
  for await (const e of result.events) yield { event: e.event, data: JSON.parse(e.data) as JsonObject };
}
