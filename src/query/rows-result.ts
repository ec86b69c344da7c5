import type { ColumnBatch, RowShape } from './row-shape.ts';

// The answer every operation gives before a face encodes it. It lives beside the row shape, below both
// the reports that produce it and the formats that encode it.

export interface StreamEvent {
  readonly event: string;
  /** The event's data as JSON text. */
  readonly data: string;
}

/** What a rows result yields: first its head, then its rows a batch at a time. */
export type RowsPart = { readonly head: Record<string, unknown> } | { readonly batch: ColumnBatch };

/**
 * A report's answer before it is encoded: a head and rows as typed columns with their shape. Every face
 * encodes it (src/formats): a `page` is the spec's `{info: head, data: [rows]}`, a `stream` a `summary`
 * event carrying `head` then one `result` event per row.
 */
export interface RowsResult {
  readonly kind: 'rows';
  readonly framing: 'page' | 'stream';
  readonly shape: RowShape;
  /**
   * Yields the head, then the rows a batch at a time, pulled: nothing is read before the first `next()`,
   * the next batch only when asked for, and stopping early interrupts the query and frees its connection.
   */
  read(): AsyncGenerator<RowsPart>;
  /** The answer's fingerprint (src/reports/extensions/fingerprint.ts): the HTTP face sends it as the ETag. */
  readonly fingerprint?: string;
}

export type EndpointResult =
  | { readonly kind: 'json'; readonly status: number; readonly json: string; readonly fingerprint?: string }
  | { readonly kind: 'stream'; readonly events: AsyncIterable<StreamEvent>; readonly fingerprint?: string }
  | RowsResult;
