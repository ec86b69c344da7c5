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
}

/** A request that failed validation; carries the FastAPI HTTPValidationError body. */
export class ValidationError extends EngineError {
  readonly status = 422;
  readonly code = 'validation_error';
  constructor(readonly detail: readonly ValidationIssue[]) {
    super(detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; '));
    this.name = 'ValidationError';
  }
  static of(loc: readonly (string | number)[], msg: string, input?: unknown): ValidationError {
    return new ValidationError([valueError(loc, msg, input)]);
  }
  override body(): HTTPValidationError {
    return { detail: this.detail };
  }
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

export class RateLimitError extends EngineError {
  readonly status = 429;
  readonly code: string = 'rate_limited';
  constructor(readonly retryAfterSeconds: number, message = 'Rate limit exceeded') {
    super(message);
    this.name = 'RateLimitError';
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
