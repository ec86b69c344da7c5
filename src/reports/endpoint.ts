import type { z } from 'zod';
import type { EngineCore } from '../engine/core.ts';
import type { CursorCodec } from '../query/cursor.ts';
import type { DialectName, Fragment } from '../query/sql.ts';
import type { FormatName } from '../formats/format-names.ts';
import type { AnswerExtension, Extensions } from './extensions/options.ts';

export type { EndpointResult, RowsPart, RowsResult, StreamEvent } from '../query/rows-result.ts';
import type { EndpointResult, RowsResult } from '../query/rows-result.ts';

export interface EndpointInput {
  readonly body?: unknown;
  readonly query?: Record<string, string | string[] | undefined>;
  readonly params?: Record<string, string>;
  /** The format the answer will be encoded in (part of a report's fingerprint); json when absent. */
  readonly format?: FormatName;
  /** The caller's cached fingerprints (HTTP If-None-Match): a report whose fingerprint is among them answers 304, unread. */
  readonly ifNoneMatch?: readonly string[];
}

/** A statement an answer runs, as sent to the backend. */
export interface Statement {
  /** What it computes: `page`, `stream (in slices)`, `guard`. */
  readonly role: string;
  /** The statements sent in a dialect: a DuckDB page is one, a ClickHouse page two (head, then rows). */
  readonly queries: (dialect: DialectName) => readonly Fragment[];
}

/** The rollups a plan's shape allows, and those found current (which its SQL reads). */
export interface RollupChoice {
  readonly candidates: readonly string[];
  readonly chosen: readonly string[];
}

/**
 * A report request validated, authorized, planned and compiled, with no data read. The extensions
 * (src/reports/extensions) read it: the plan is the normalized request a fingerprint hashes, and
 * explain shows the statements; `run` reads the answer.
 */
export interface PreparedCall {
  /** The report and mode answering, the same under every alias path: `visibility.v2 page`. */
  readonly report: string;
  readonly plan: unknown;
  /** The normalized request, pure data: the plan and the page it asks for (a fingerprint hashes it). */
  readonly normalized: unknown;
  readonly statements: readonly Statement[];
  readonly rollups: RollupChoice;
  run(): Promise<RowsResult>;
}

/**
 * `look`: say which rollups are current without starting a build (explain reads nothing); `use`: start
 * building the missing ones; a set: take these as the current ones and ask nothing (golden SQL, the planner's bench).
 */
export type RollupLookup = 'look' | 'use' | ReadonlySet<string>;

/** How to prepare a call: the rollup lookup, and the extensions that change the answer's SQL. */
export interface PrepareOptions {
  readonly lookup: RollupLookup;
  readonly extensions: Extensions;
}

export const plainPrepare: PrepareOptions = {
  lookup: 'use',
  extensions: { explain: false, fill: null, compare: null, components: false },
};

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
  /** Reports: the request prepared with no data read; `handle` is `prepare` then `run`, plus the extensions. */
  readonly prepare?: (input: EndpointInput, ctx: CallContext, options: PrepareOptions) => Promise<PreparedCall>;
  /** The answer extensions this endpoint takes (src/reports/extensions); any other is a 422. */
  readonly extensions?: readonly AnswerExtension[];
}

export type Weight = 'light' | 'heavy';

export const weightOf = (endpoint: Endpoint): Weight =>
  endpoint.weight ?? (endpoint.group === 'reports' ? 'heavy' : 'light');

export const jsonResult = (body: unknown, status = 200): EndpointResult => ({
  kind: 'json',
  status,
  json: JSON.stringify(body),
});
