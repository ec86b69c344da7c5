import type { RecordBatch, Table } from 'apache-arrow';
import { encodeRows, rowsFor, type EncodeOptions } from '../formats/encode.ts';
import { formats, type FormatName } from '../formats/format-names.ts';
import { pageObject, streamObjects } from '../formats/json.ts';
import type { EndpointResult } from '../query/rows-result.ts';

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
  for (const [name, v] of Object.entries(options))
    if (extensionKeys.has(name) && v !== undefined) query[name] = typeof v === 'string' ? v : JSON.stringify(v);
  return query;
}

const extensionKeys = new Set<string>([
  'explain',
  'fill',
  'compare',
  'components',
] satisfies (keyof ExtensionOptions)[]);

type With<F extends FormatName> = ReportOptions & { readonly format: F };
type Explain = ReportOptions & { readonly explain: true };
type AsJson = ReportOptions & { readonly format?: 'json'; readonly explain?: false };

/** A report's answer page: `{info, data}` (v2) or `{info: {total_rows, query}, data}` (v1 and traffic). */
export interface Page<Info, Row> {
  readonly info: Info;
  readonly data: Row[];
}

/** A JSON stream's events: one `summary` (the page's info for the whole stream), then one `result` per row. */
export type ReportEvent<Summary, Row> =
  | { readonly event: 'summary'; readonly data: Summary }
  | { readonly event: 'result'; readonly data: Row };

/** JSON as parsed: what a request, a plan or a statement's parameters are in an explain answer. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * With `{explain: true}` a call answers (or a stream yields once, as `{event: 'explain'}`) the normalized
 * request, the plan, each statement's SQL and parameters with the backend's EXPLAIN, and the rollups (docs/extensions.md).
 */
export interface Explained {
  readonly explain: {
    readonly operation: string;
    readonly organization_id: string;
    readonly request: JsonValue;
    readonly plan: JsonValue;
    readonly rollups: { readonly candidates: string[]; readonly chosen: string[]; readonly reason: string };
    readonly statements: {
      readonly role: string;
      readonly sql: string;
      readonly params: JsonValue;
      readonly explain: string;
    }[];
    readonly answer_fingerprint: string;
  };
  readonly fingerprint: string;
}

/** `reports.<name>(body, options?)`: the page as `{info, data}`, or in the format asked for. */
export interface ReportCall<Body = object, Answer = JsonObject> {
  (body: Body, options?: AsJson): Promise<Answer>;
  (body: Body, options: Explain): Promise<Explained>;
  (body: Body, options: With<'arrow'>): Promise<Table>;
  (body: Body, options: With<'csv' | 'ndjson'>): Promise<string>;
  (body: Body, options: With<'parquet'>): Promise<Uint8Array>;
  (body: Body, options: ReportOptions): Promise<Answer | Explained | Table | string | Uint8Array>;
}

/** `reports.<name>Stream(body, options?)`: `{event, data}` events, or the rows in the format asked for, piece by piece. */
export interface StreamCall<Body = object, Event = { event: string; data: JsonObject }> {
  (body: Body, options?: AsJson): AsyncIterable<Event>;
  (body: Body, options: Explain): AsyncIterable<{ readonly event: 'explain'; readonly data: Explained }>;
  (body: Body, options: With<'arrow'>): AsyncIterable<RecordBatch>;
  (body: Body, options: With<'csv' | 'ndjson'>): AsyncIterable<string>;
  (body: Body, options: With<'parquet'>): AsyncIterable<Uint8Array>;
  (
    body: Body,
    options: ReportOptions,
  ): AsyncIterable<Event | { readonly event: 'explain'; readonly data: Explained } | RecordBatch | string | Uint8Array>;
}

export function parseJson(result: EndpointResult): JsonObject {
  if (result.kind !== 'json') throw new Error('expected a JSON result');
  return JSON.parse(result.json) as JsonObject;
}

/** A page's answer in a format: JS objects, an Arrow Table, text or bytes. */
export async function pageAs(
  result: EndpointResult,
  format: FormatName,
  path: string,
  options: EncodeOptions,
): Promise<JsonObject | Table | string | Uint8Array> {
  if (format === 'json') return result.kind === 'rows' ? pageObject(result) : parseJson(result);
  const rows = rowsFor(result, format, path);
  // apache-arrow loads with the first Arrow answer (some 160 modules).
  if (format === 'arrow') return (await import('../formats/arrow.ts')).arrowTable(rows);
  const pieces: (string | Uint8Array)[] = [];
  for await (const piece of encodeRows(rows, format, options)) pieces.push(piece);
  return formats[format].binary ? new Uint8Array(Buffer.concat(pieces as Uint8Array[])) : pieces.join('');
}

/** A stream's answer in a format: `{event, data}` objects, Arrow record batches, text or byte pieces. */
export async function* streamAs(
  result: EndpointResult,
  format: FormatName,
  path: string,
  options: EncodeOptions,
): AsyncGenerator<{ event: string; data: JsonObject } | RecordBatch | string | Uint8Array> {
  if (format !== 'json') {
    const rows = rowsFor(result, format, path);
    return yield* format === 'arrow'
      ? (await import('../formats/arrow.ts')).arrowBatches(rows)
      : encodeRows(rows, format, options);
  }
  if (result.kind === 'rows') return yield* streamObjects(result);
  if (result.kind === 'json') return yield { event: 'explain', data: parseJson(result) };
  if (result.kind !== 'stream') throw new Error(`${path} is not a stream`);
  for await (const e of result.events) yield { event: e.event, data: JSON.parse(e.data) as JsonObject };
}
