import type { OrgScope } from '../library/org-scope.ts';
import { ConflictError } from '../errors.ts';
import { boundedPiece, defaultMaxRows, type BoundedPiece } from './bounded-answer.ts';
import { decodeCursor, encodeCursor } from './answer-cursor.ts';
import type { CallGate } from './call-gate.ts';
import {
  dataSpan,
  filterArguments,
  outsideSpan,
  unknownNames,
  type EmptyReason,
  type ReadRow,
} from './empty-reason.ts';
import { writesOff } from './mcp-errors.ts';
import { metricsOf } from './report-metrics.ts';
import type { McpTool } from './tool-catalog.ts';
import { maxRowsOf, routeCall } from './tool-input.ts';

/** Who calls and how: the organization's scope, the admission of its calls, whether writes are on. */
export interface ToolSession {
  readonly scope: OrgScope;
  readonly gate: CallGate;
  readonly allowWrites: boolean;
  readonly read: ReadRow;
}

/** A tool's answer: the JSON text an agent reads (rows exactly as REST writes them) and the same as a value. */
export interface ToolAnswer {
  readonly text: string;
  readonly value: Record<string, unknown>;
}

type Head = Record<string, unknown>;
const asObject = (v: unknown): Head | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Head) : undefined;

/** The window the answer states (normalized), else the one asked for. */
function windowOf(
  head: Head | null,
  args: Record<string, unknown>,
): { start: string; end: string; as: 'answered' | 'asked' } | null {
  const query = asObject(head?.query);
  for (const h of [head, query])
    if (h && typeof h.start_date === 'string' && typeof h.end_date === 'string')
      return { start: h.start_date, end: h.end_date, as: 'answered' };
  if (typeof args.start_date === 'string' && typeof args.end_date === 'string')
    return { start: args.start_date, end: args.end_date, as: 'asked' };
  return null;
}

/** The filters the answer states, as the report normalized them. */
function filtersOf(head: Head | null): Record<string, unknown> | null {
  const query = asObject(head?.query);
  const out: Record<string, unknown> = {};
  for (const h of [head, query])
    for (const k of ['filter', 'filters', 'metric_filters', 'asset_filter']) if (h && k in h) out[k] = h[k];
  return Object.keys(out).length > 0 ? out : null;
}

/** Runs a call through the session's gate and reads one bounded piece of its answer. */
async function piece(
  tool: McpTool,
  session: ToolSession,
  args: Record<string, unknown>,
  skip: number,
  maxRows: number,
): Promise<{ piece: BoundedPiece; fingerprint: string | null }> {
  const { path, input } = routeCall(tool, args);
  return session.gate.run(tool.endpoint, async (signal) => {
    const result = await session.scope.invoke(tool.endpoint.method, path, input, signal);
    return { piece: await boundedPiece(result, skip, maxRows), fingerprint: result.fingerprint ?? null };
  });
}

/** Why a report answered no rows: an unknown name, a window outside the data, the filters, or no data in the window. */
async function whyEmpty(
  tool: McpTool,
  session: ToolSession,
  args: Record<string, unknown>,
  head: Head | null,
): Promise<EmptyReason> {
  const unknown = await unknownNames(session.scope, args);
  if (unknown.length > 0) {
    const names = unknown
      .map((u) => `${u.argument} = ${JSON.stringify(u.value)} (closest: ${u.closest.join(', ') || 'none'})`)
      .join('; ');
    return { reason: 'unknown_name', detail: `no rows: the organization has no such name or id: ${names}`, unknown };
  }
  const window = windowOf(head, args);
  const span = await dataSpan(session.read, session.scope.id, args, tool.name);
  if (window && span && outsideSpan(window, span)) {
    return {
      reason: 'outside_span',
      detail: `no rows: the window ${window.start} .. ${window.end} is outside the data, which spans ${span.first_day ?? 'nothing'} .. ${span.last_day ?? 'nothing'}`,
      span,
    };
  }
  const narrowed = filterArguments.filter(
    (k) =>
      args[k] !== undefined && args[k] !== null && !(Array.isArray(args[k]) && (args[k] as unknown[]).length === 0),
  );
  if (narrowed.length > 0) {
    const wide = Object.fromEntries(
      Object.entries(args).filter(([k]) => !narrowed.includes(k as (typeof filterArguments)[number]) && k !== 'cursor'),
    );
    const { piece: unfiltered } = await piece(tool, session, wide, 0, 1);
    if (unfiltered.rows.length > 0)
      return {
        reason: 'filtered_out',
        detail: `no rows: the window has data, and ${narrowed.join(' and ')} removed all of it`,
      };
  }
  return {
    reason: 'no_data_in_window',
    detail: `no rows: nothing was recorded in the window${window ? ` ${window.start} .. ${window.end}` : ''}${span ? ` (the data spans ${span.first_day ?? 'nothing'} .. ${span.last_day ?? 'nothing'})` : ''}`,
    span,
  };
}

/** The next piece of the answer: more rows of this one, else the report's next page, else none. */
function nextCursor(
  tool: McpTool,
  args: Record<string, unknown>,
  skip: number,
  got: BoundedPiece,
  fingerprint: string | null,
): string | null {
  if (got.more) return encodeCursor({ tool: tool.name, args, skip: skip + got.rows.length, fingerprint });
  const reportCursor = got.head?.next_cursor;
  if (typeof reportCursor === 'string' && tool.sections.get('cursor') === 'body')
    return encodeCursor({ tool: tool.name, args: { ...args, cursor: reportCursor }, skip: 0, fingerprint: null });
  const query = asObject(got.head?.query);
  const paging = asObject(query?.pagination);
  const total = got.head?.total_rows;
  if (
    paging &&
    typeof paging.limit === 'number' &&
    typeof paging.offset === 'number' &&
    typeof total === 'number' &&
    paging.offset + paging.limit < total
  ) {
    return encodeCursor({
      tool: tool.name,
      args: { ...args, pagination: { ...asObject(args.pagination), offset: paging.offset + paging.limit } },
      skip: 0,
      fingerprint: null,
    });
  }
  return null;
}

/**
 * Calls a tool as the session's organization. A report's answer states its window, its filters as
 * normalized, its metrics by reference and its fingerprint; it holds one bounded piece of the rows
 * with the cursor to continue, and when it has none, the reason.
 */
export async function callTool(
  tool: McpTool,
  session: ToolSession,
  given: Record<string, unknown>,
): Promise<ToolAnswer> {
  if (tool.write && !session.allowWrites) throw writesOff(tool.name);
  const cursor =
    !tool.write && given.result_cursor !== undefined ? decodeCursor(given.result_cursor, tool.name) : undefined;
  const args = cursor
    ? cursor.args
    : Object.fromEntries(Object.entries(given).filter(([k]) => k !== 'result_cursor' && k !== 'max_rows'));
  const maxRows = maxRowsOf(given, defaultMaxRows);
  const skip = cursor?.skip ?? 0;
  const { piece: got, fingerprint } = await piece(tool, session, args, skip, maxRows);
  if (cursor?.fingerprint && fingerprint !== cursor.fingerprint) {
    throw new ConflictError(
      `the answer changed since this cursor was given (fingerprint ${cursor.fingerprint}, now ${fingerprint ?? 'none'}): call the tool again without result_cursor`,
      'answer_changed',
    );
  }
  if (got.whole !== undefined) return { text: got.whole, value: JSON.parse(got.whole) as Record<string, unknown> };
  const meta: Record<string, unknown> = { tool: tool.name, operation: `${tool.endpoint.method} ${tool.endpoint.path}` };
  if (tool.rows) {
    meta.window = windowOf(got.head, args);
    meta.filters = filtersOf(got.head);
    const defs = metricsOf(tool.name);
    meta.metric_definitions =
      defs.length > 0 ? { resource: 'aea://model/metrics', names: defs.map((m) => m.name) } : null;
    meta.fingerprint = fingerprint;
    meta.info = got.head;
  } else if (got.head) {
    meta.info = got.head;
  }
  meta.rows_skipped = skip;
  meta.row_count = got.rows.length;
  meta.bounded_by = got.stoppedBy;
  meta.next_cursor = nextCursor(tool, args, skip, got, fingerprint);
  if (tool.rows && got.rows.length === 0 && skip === 0 && args.cursor === undefined)
    meta.empty_reason = await whyEmpty(tool, session, args, got.head);
  const text = `${JSON.stringify(meta).slice(0, -1)},"rows":[${got.rows.join(',')}]}`;
  return { text, value: JSON.parse(text) as Record<string, unknown> };
}
