import { NotAcceptableError } from '../errors.ts';

/**
 * The encodings a report's rows come in. `json` is the spec's: the page body, or Server-Sent Events on a
 * stream endpoint. The others are tables: NDJSON and CSV carry the rows only; Arrow and Parquet carry
 * typed columns and the head as metadata.
 */
export const formats = {
  json: { mediaType: 'application/json', extension: 'json', binary: false },
  ndjson: { mediaType: 'application/x-ndjson', extension: 'ndjson', binary: false },
  csv: { mediaType: 'text/csv', extension: 'csv', binary: false },
  arrow: { mediaType: 'application/vnd.apache.arrow.stream', extension: 'arrows', binary: true },
  parquet: { mediaType: 'application/vnd.apache.parquet', extension: 'parquet', binary: true },
} as const;

export type FormatName = keyof typeof formats;
/** Every format but the spec's JSON: what `encodeRows` writes. */
export type TableFormat = Exclude<FormatName, 'json'>;

export const formatNames = Object.keys(formats) as FormatName[];

export const isFormatName = (name: unknown): name is FormatName =>
  typeof name === 'string' && Object.hasOwn(formats, name);

/** The metadata key under which Arrow and Parquet carry the head (the page's `info`, the stream's `summary`), as JSON text. */
export const headKey = 'aea:head';

/** The Content-Type a format is sent with. */
export function contentType(format: FormatName, stream: boolean): string {
  if (format === 'json') return stream ? 'text/event-stream; charset=utf-8' : 'application/json; charset=utf-8';
  if (format === 'csv') return 'text/csv; charset=utf-8; header=present';
  if (format === 'ndjson') return 'application/x-ndjson; charset=utf-8';
  return formats[format].mediaType;
}

/** A format named by a caller (library option, CLI flag); an unknown name is refused like an unmet Accept. */
export function formatOf(name: unknown): FormatName {
  if (name === undefined) return 'json';
  if (isFormatName(name)) return name;
  throw new NotAcceptableError(`unknown format ${JSON.stringify(name)}; formats: ${formatNames.join(', ')}`);
}
