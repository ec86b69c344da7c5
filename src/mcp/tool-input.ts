import { ValidationError, type ValidationIssue } from '../errors.ts';
import type { EndpointInput } from '../reports/endpoint.ts';
import { continuation } from './continuation.ts';
import type { McpTool } from './tool-catalog.ts';

/** A tool call's arguments as the REST call they stand for: its path (parameters filled in) and input. */
export interface RoutedCall {
  readonly path: string;
  readonly input: EndpointInput;
}

const queryText = (v: unknown): string | string[] =>
  Array.isArray(v) ? v.map(String) : typeof v === 'string' ? v : JSON.stringify(v);

/**
 * Sends each argument where its route takes it: path parameters into the path, extensions and listing
 * options into the query, the rest into the body, where the operation's strict schema refuses an
 * unknown one with a 422 naming it, as REST does.
 */
export function routeCall(tool: McpTool, args: Record<string, unknown>): RoutedCall {
  const body: Record<string, unknown> = {};
  const query: Record<string, string | string[]> = {};
  const params: Record<string, string> = {};
  const issues: ValidationIssue[] = [];
  for (const [name, value] of Object.entries(args)) {
    if (name in continuation && !tool.write) continue;
    const section = tool.sections.get(name) ?? (tool.endpoint.schemas.body ? 'body' : undefined);
    if (section === undefined)
      issues.push({
        type: 'extra_forbidden',
        loc: ['arguments', name],
        msg: 'Extra inputs are not permitted',
        input: value,
      });
    else if (section === 'body') body[name] = value;
    else if (value === undefined || value === null) continue;
    else if (section === 'query') query[name] = queryText(value);
    else if (typeof value !== 'string' || value === '')
      issues.push({
        type: 'string_type',
        loc: ['arguments', name],
        msg: 'Input should be a non-empty string',
        input: value,
      });
    else params[name] = value;
  }
  const path = tool.endpoint.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    if (!(name in params))
      issues.push({ type: 'missing', loc: ['arguments', name], msg: 'Field required', input: args });
    return encodeURIComponent(params[name] ?? '_');
  });
  if (issues.length > 0) throw new ValidationError(issues);
  return { path, input: { ...(tool.endpoint.schemas.body ? { body } : {}), query, params } };
}

/** The rows an answer may hold: `max_rows`, 1 to 200, default 50. */
export function maxRowsOf(args: Record<string, unknown>, fallback: number): number {
  const v = args.max_rows;
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > continuation.max_rows.maximum) {
    throw ValidationError.of(
      ['arguments', 'max_rows'],
      `max_rows is an integer from 1 to ${continuation.max_rows.maximum}`,
      v,
    );
  }
  return v;
}
