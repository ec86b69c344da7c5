import { heavyBusyRetrySeconds, maxClientWaitSeconds, maxEchoedInputChars, serverBusyRetrySeconds } from './limits.ts';

export interface ValidationIssue {
  readonly loc: readonly (string | number)[];
  readonly msg: string;
  readonly type: string;
  readonly input?: unknown;
  readonly ctx?: Record<string, unknown>;
}

export interface HTTPValidationError {
  readonly detail: readonly ValidationIssue[];
}

/** The one error family every face maps: the library throws these, HTTP and CLI translate them. */
export abstract class EngineError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  /** The JSON body of every non-422 error: FastAPI's `detail` plus a stable machine-readable `code`. */
  body(): unknown {
    return { detail: this.message, code: this.code };
  }
  /** Response headers that tell a client when (and whether) to retry. */
  headers(): Record<string, string | number> {
    return {};
  }
}

/** A request that failed validation; carries the FastAPI HTTPValidationError body. */
export class ValidationError extends EngineError {
  readonly status = 422;
  readonly code = 'validation_error';
  readonly detail: readonly ValidationIssue[];
  constructor(detail: readonly ValidationIssue[]) {
    super(detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; '));
    this.name = 'ValidationError';
    this.detail = detail.map((d) => (d.input === undefined ? d : { ...d, input: echoedInput(d.input) }));
  }
  static of(loc: readonly (string | number)[], msg: string, input?: unknown): ValidationError {
    return new ValidationError([valueError(loc, msg, input)]);
  }
  override body(): HTTPValidationError {
    return { detail: this.detail };
  }
}

/** A string cut to `maxEchoedInputChars`, never between the two halves of a surrogate pair. */
function cut(text: string): string {
  if (text.length <= maxEchoedInputChars) return text;
  const end = /[\uD800-\uDBFF]/.test(text[maxEchoedInputChars - 1]!) ? maxEchoedInputChars - 1 : maxEchoedInputChars;
  return `${text.slice(0, end)}…`;
}

/** What a 422 echoes of a caller's input: the input itself when short, else its (JSON) text cut. */
export function echoedInput(input: unknown): unknown {
  if (typeof input === 'string') return cut(input);
  if (input === null || typeof input !== 'object') return input;
  let json: string | undefined;
  try {
    json = JSON.stringify(input);
  } catch {
    return cut(String(input));
  }
  return json === undefined || json.length <= maxEchoedInputChars ? input : cut(json);
}

export function valueError(loc: readonly (string | number)[], msg: string, input?: unknown): ValidationIssue {
  return { type: 'value_error', loc, msg: `Value error, ${msg}`, input, ctx: { error: msg } };
}

export class AuthError extends EngineError {
  readonly status = 401;
  readonly code = 'unauthorized';
  constructor(message = 'Invalid or expired API key') {
    super(message);
    this.name = 'AuthError';
  }
}

export class ForbiddenError extends EngineError {
  readonly status = 403;
  readonly code = 'forbidden';
  constructor(message = 'This API key has no access to the resource') {
    super(message);
    this.name = 'ForbiddenError';
  }
}

export class NotFoundError extends EngineError {
  readonly status = 404;
  readonly code = 'not_found';
  constructor(message = 'Not found') {
    super(message);
    this.name = 'NotFoundError';
  }
}

/** The request conflicts with the object's state, e.g. running an agent that was never published. */
export class ConflictError extends EngineError {
  readonly status = 409;
  constructor(
    message: string,
    readonly code = 'conflict',
  ) {
    super(message);
    this.name = 'ConflictError';
  }
}

/** A write that would take a stored thing past its size bound (a knowledge base's documents or bytes): 413. */
export class TooLargeError extends EngineError {
  readonly status = 413;
  constructor(
    message: string,
    readonly code = 'payload_too_large',
  ) {
    super(message);
    this.name = 'TooLargeError';
  }
}

export class RateLimitError extends EngineError {
  readonly status = 429;
  readonly code: string = 'rate_limited';
  constructor(
    readonly retryAfterSeconds: number,
    message = 'Rate limit exceeded',
  ) {
    super(message);
    this.name = 'RateLimitError';
  }
  /** The official client obeys Retry-After without a cap: past a minute it is told not to retry at all. */
  override headers(): Record<string, string | number> {
    return this.retryAfterSeconds > maxClientWaitSeconds
      ? { 'retry-after': this.retryAfterSeconds, 'x-should-retry': 'false' }
      : { 'retry-after': this.retryAfterSeconds };
  }
}

/** Too many streams open at once for one key. */
export class StreamLimitError extends RateLimitError {
  override readonly code: string = 'too_many_streams';
  constructor(max: number) {
    super(1, `At most ${max} streams may be open at once per API key`);
    this.name = 'StreamLimitError';
  }
}

/** Too many heavy requests (reports) running at once for one key. */
export class HeavyLimitError extends RateLimitError {
  override readonly code: string = 'too_many_heavy_requests';
  constructor(max: number) {
    super(heavyBusyRetrySeconds, `At most ${max} reports may run at once per API key; retry when one has finished`);
    this.name = 'HeavyLimitError';
  }
}

/** Every stream slot of the process is taken: the server, not the caller, is at its bound. */
export class ServerBusyError extends EngineError {
  readonly status = 503;
  readonly code = 'server_busy';
  constructor(max: number) {
    super(`The server has ${max} streams open, its limit; retry shortly`);
    this.name = 'ServerBusyError';
  }
  override headers(): Record<string, string | number> {
    return { 'retry-after': serverBusyRetrySeconds };
  }
}

/**
 * A request ran out of its time budget and its statement was interrupted. Retrying the same request
 * would run the same work for as long again, so the official client (which retries every 5xx) is told
 * not to: the caller should narrow the request.
 */
export class TimeBudgetError extends EngineError {
  readonly status = 503;
  readonly code = 'time_budget_exceeded';
  constructor(readonly budgetMs: number) {
    super(
      `The request ran longer than its time budget of ${budgetMs / 1000} s and was stopped; narrow it (a shorter window, fewer dimensions, a smaller page)`,
    );
    this.name = 'TimeBudgetError';
  }
  override headers(): Record<string, string | number> {
    return { 'x-should-retry': 'false' };
  }
}

/** The caller went away (the client disconnected, or the library caller aborted): nobody reads the answer. */
export class CallAbortedError extends EngineError {
  readonly status = 499;
  readonly code = 'client_closed_request';
  constructor(message = 'The caller went away before the answer was ready') {
    super(message);
    this.name = 'CallAbortedError';
  }
}

/** A format the operation cannot answer in: a table format asked of an operation that returns no rows, or an Accept header no format meets. */
export class NotAcceptableError extends EngineError {
  readonly status = 406;
  readonly code = 'not_acceptable';
  constructor(message: string) {
    super(message);
    this.name = 'NotAcceptableError';
  }
}

export class GoneError extends EngineError {
  readonly status = 410;
  readonly code = 'gone';
  constructor(message: string) {
    super(message);
    this.name = 'GoneError';
  }
}

export class UnavailableError extends EngineError {
  readonly status = 503;
  readonly code = 'unavailable';
  constructor(message: string) {
    super(message);
    this.name = 'UnavailableError';
  }
}

/**
 * A failure that is no refusal of the request: a bug, or a backend failing a statement it should have
 * answered. Its cause goes to the log (and a CLI's stderr), never into the body, which could carry
 * paths and SQL of the deployment.
 */
export class InternalError extends EngineError {
  readonly status = 500;
  readonly code = 'internal_error';
  constructor() {
    super('Internal Server Error');
    this.name = 'InternalError';
  }
}

/**
 * The dataset leaves out a table this operation reads. 501: this deployment does not offer the
 * operation until the table is added; retrying cannot help.
 */
export class MissingTableError extends EngineError {
  readonly status = 501;
  readonly code = 'missing_table';
  constructor(
    readonly operation: string,
    readonly tables: readonly string[],
  ) {
    const names = tables.map((t) => `"${t}"`).join(', ');
    super(
      `${operation} needs the table${tables.length > 1 ? 's' : ''} ${names}, which the dataset does not have; add ${tables.length > 1 ? 'them' : 'it'} (see docs/own-data.md)`,
    );
    this.name = 'MissingTableError';
  }
}

/** A dataset that does not meet the data contract; raised when the engine opens, never mid-request. */
export class DatasetError extends Error {
  constructor(
    message: string,
    readonly file?: string,
    readonly column?: string,
  ) {
    super(message);
    this.name = 'DatasetError';
  }
}

const mib = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MiB`;

/** An export needs more temporary disk than one export may take: narrowing it is the way, retrying is not. */
export class ExportTooLargeError extends EngineError {
  readonly status = 413;
  readonly code = 'export_too_large';
  constructor(readonly limitBytes: number) {
    super(
      `The export needs more than ${mib(limitBytes)} of temporary disk, its limit; narrow it (a shorter window, fewer dimensions or extensions), or ask for NDJSON, CSV or Arrow, which need none`,
    );
    this.name = 'ExportTooLargeError';
  }
  override headers(): Record<string, string | number> {
    return { 'x-should-retry': 'false' };
  }
}

/** The process's temporary disk for exports is taken by others: retry shortly. */
export class TempDiskBusyError extends EngineError {
  readonly status = 503;
  readonly code = 'temp_disk_busy';
  constructor(readonly limitBytes: number) {
    super(`The exports under way hold ${mib(limitBytes)} of temporary disk, the process's limit; retry shortly`);
    this.name = 'TempDiskBusyError';
  }
  override headers(): Record<string, string | number> {
    return { 'retry-after': serverBusyRetrySeconds };
  }
}
