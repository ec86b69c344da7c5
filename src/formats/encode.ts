import { NotAcceptableError } from '../errors.ts';
import type { EndpointResult, RowsResult } from '../query/rows-result.ts';
import { csvText } from './csv.ts';
import { formatNames, type FormatName, type TableFormat } from './format-names.ts';
import { ndjsonText } from './ndjson.ts';
import { parquetBytes, type DuckDBLender } from './parquet.ts';
import type { TempDisk } from '../engine/temp-disk.ts';

export interface EncodeOptions {
  /** Where Parquet is written: the engine's pool (every face passes it); a private DuckDB without it. */
  readonly duckdb?: DuckDBLender;
  /** The temporary disk Parquet counts against (the engine's bounds); the defaults without it. */
  readonly tempDisk?: TempDisk;
  /** CSV text cells exactly as stored, without the spreadsheet guard (docs/security.md); default false. */
  readonly csvRaw?: boolean;
}

/** Text formats yield strings, binary ones bytes; every piece is one slice of rows at most. */
export type Encoded = AsyncGenerator<string | Uint8Array>;

const encoders: Record<TableFormat, (result: RowsResult, options: EncodeOptions) => Encoded> = {
  ndjson: (result) => ndjsonText(result),
  csv: (result, options) => csvText(result, { raw: options.csvRaw === true }),
  arrow: (result) => arrowIpc(result),
  parquet: (result, options) => parquetBytes(result, options.duckdb, options.tempDisk),
};

// Imported when first asked for: apache-arrow is some 160 modules that a JSON or CSV answer never needs.
async function* arrowIpc(result: RowsResult): Encoded {
  yield* (await import('./arrow.ts')).arrowIpc(result);
}

/** A rows result in a table format, piece by piece; pulled, so stopping early stops the query. */
export function encodeRows(result: RowsResult, format: TableFormat, options: EncodeOptions = {}): Encoded {
  return encoders[format](result, options);
}

/** The refusal of a table format by an operation that answers no rows (a resource, an agent run). */
export const jsonOnly = (path: string, format: FormatName) =>
  new NotAcceptableError(
    `${path} answers JSON only; ${format} is offered by report endpoints (formats: ${formatNames.join(', ')})`,
  );

/** The rows a table format encodes; an answer without rows is refused. */
export function rowsFor(result: EndpointResult, format: FormatName, path: string): RowsResult {
  if (result.kind === 'rows') return result;
  throw jsonOnly(path, format);
}
