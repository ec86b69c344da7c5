import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { EngineError } from '../errors.ts';
import { dataUnavailable } from '../engine/database-errors.ts';

/**
 * An engine refusal as an MCP error: the REST status and body ride in `data`, so a 422 carries the
 * same `detail` list (each issue's loc, msg, type) the REST answer would.
 */
export function mcpErrorOf(error: unknown): McpError {
  if (error instanceof McpError) return error;
  const engineError = error instanceof EngineError ? error : dataUnavailable(error);
  if (engineError) {
    const code = engineError.status >= 500 ? ErrorCode.InternalError : ErrorCode.InvalidParams;
    return new McpError(code, engineError.message, {
      status: engineError.status,
      code: engineError.code,
      body: engineError.body(),
    });
  }
  return new McpError(ErrorCode.InternalError, 'Internal error', { status: 500, code: 'internal_error' });
}

/** A write tool called while writes are off. */
export const writesOff = (tool: string) =>
  new McpError(
    ErrorCode.InvalidRequest,
    `${tool} changes data and write tools are off: start the server with --allow-writes`,
    { status: 403, code: 'writes_disabled' },
  );
