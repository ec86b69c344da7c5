import type { z } from 'zod';
import type { EngineCore } from '../engine/core.ts';
import type { CursorCodec } from '../query/cursor.ts';
import type { ColumnBatch, RowShape } from '../query/row-shape.ts';

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
}

export type EndpointResult =
  | { readonly kind: 'json'; readonly status: number; readonly json: string }
  | { readonly kind: 'stream'; readonly events: AsyncIterable<StreamEvent> }
  | RowsResult;

export interface EndpointInput {
  readonly body?: unknown;
  readonly query?: Record<string, string | string[] | undefined>;
  readonly params?: Record<string, string>;
}

/** What every call carries: who is asking, the opened dataset, the clock reading for this request. */
export interface CallContext {
  readonly organizationId: string;
  readonly core: EngineCore;
  readonly now: Date;
  readonly cursors: CursorCodec;
  readonly signal?: AbortSignal;
}

/** One operation of the API. The registry of these drives the library, HTTP routes, the CLI and OpenAPI. */
export interface Endpoint {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  readonly path: string;
  /** The library method name: `engine.org(id).reports[name]` or `.resources[name]`. */
  readonly name: string;
  readonly group: 'reports' | 'resources';
  readonly summary: string;
  readonly tags: readonly string[];
  readonly stream: boolean;
  /**
   * `heavy` work (report SQL over the facts, large edits) counts against a key's cap on concurrent
   * heavy requests; `light` work does not. Default: reports are heavy, resources light.
   */
  readonly weight?: Weight;
  /** Deprecated in favour of `successor`; the REST service adds Deprecation and Link headers. */
  readonly deprecated?: boolean;
  readonly successor?: string;
  /** A retired operation: refused for keys created on or after `newKeysFrom`, and for every key from `sunsetOn`. */
  readonly sunset?: { readonly deprecatedOn: string; readonly newKeysFrom: string; readonly sunsetOn: string };
  readonly schemas: { readonly body?: z.ZodType; readonly query?: z.ZodType; readonly params?: z.ZodType };
  handle(input: EndpointInput, ctx: CallContext): Promise<EndpointResult>;
}

export type Weight = 'light' | 'heavy';

export const weightOf = (endpoint: Endpoint): Weight => endpoint.weight ?? (endpoint.group === 'reports' ? 'heavy' : 'light');

export const jsonResult = (body: unknown, status = 200): EndpointResult => ({ kind: 'json', status, json: JSON.stringify(body) });
