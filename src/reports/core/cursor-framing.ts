import { sliceBatch } from '../../engine/column-reads.ts';
import { fingerprint } from '../../query/cursor.ts';
import { dictionaryColumns } from '../../query/row-shape.ts';
import type { CallContext, RowsResult } from '../endpoint.ts';
import { pageResult, pageStatement, readPage } from '../read-rows.ts';
import { countUnits, headOf, headQuery, pageStatements, type Head, type UnitRange } from '../rows-query.ts';
import { streamStatements } from '../stream-payloads.ts';
import type { DateSpan } from '../extensions/compared-dates.ts';
import { dateSlices, unitSlices, type DateOrder, type SliceCounter } from '../stream-slices.ts';
import type { Framed, Framing, Mode, Prepared, Report } from './report.ts';

export interface Paging {
  readonly limit: number;
  readonly cursor: string | null;
  readonly maxResults: number | null;
}

export interface PageFacts {
  /** Page units in the whole result. */
  readonly total: number;
  /** Page units on this page (or in the stream). */
  readonly count: number;
  /** Rows on this page (or in the stream). */
  readonly rows: number;
  readonly nextCursor: string | null;
  readonly cursor: string | null;
  readonly limit: number;
  /** The `info` JSON the report's SQL computed. */
  readonly sqlInfo: Record<string, unknown>;
}

/**
 * An answer that leads with the date can be streamed one window of days at a time: `order` says how it
 * leads (a calendar bucket ascending, or newest first), or null when it does not; `within` is the same
 * plan over a part of its window.
 */
export interface ByDate<Plan> {
  order(plan: Plan): DateOrder | null;
  window(plan: Plan): DateSpan;
  within(plan: Plan, start: string, end: string): Plan;
}

/** What the v2 framing reads from a report: its paging, its `info`, and whether its stream can go by dates. */
export interface CursorPages<Req, Plan> {
  paging(req: Req, mode: Mode): Paging;
  info(plan: Plan, page: PageFacts): Record<string, unknown>;
  readonly byDate?: ByDate<Plan>;
}

/**
 * The v2 framing: a page is `{info, data}` read in one statement, its place a signed cursor; a stream is a
 * `summary` event, then one `result` per row, read in order-preserving slices.
 */
export function cursorFraming<Req, Plan>(pages: CursorPages<Req, Plan>): Framing<Req, Plan> {
  return {
    streamSummary: 'Server-Sent Events: one summary event, then one result event per row',
    page: (report, p, ctx) => cursorPage(report, pages, p, ctx),
    stream: (report, p, ctx) => cursorStream(report, pages, p, ctx),
  };
}

/** What a v2 page's cursor is signed over: the report, the organization and the plan as read (before the rewrites). */
export const cursorFingerprint = (reportId: string, organizationId: string, read: unknown): string =>
  fingerprint({ report: reportId, org: organizationId, plan: read });

function cursorPage<Req, Plan>(
  report: Report<Req, Plan>,
  pages: CursorPages<Req, Plan>,
  p: Prepared<Req, Plan>,
  ctx: CallContext,
): Framed {
  const paging = pages.paging(p.req, 'page');
  const fp = cursorFingerprint(report.id, ctx.organizationId, p.read);
  const offset = paging.cursor === null ? 0 : ctx.cursors.decode(paging.cursor, fp, ['body', 'cursor']);
  const range = { after: offset, upTo: offset + paging.limit };
  return {
    // The page's next_cursor is signed with the engine's cursor key: another key gives other bytes.
    normalized: { plan: p.plan, paging, cursorKey: ctx.cursors.keyId },
    statements: [pageStatement(ctx, p.compiled, range)],
    run: async () => {
      const { head, rows } = await readPage(ctx, p.compiled, range);
      const counted = countUnits(rows);
      const facts: PageFacts = {
        total: head.total,
        count: counted.units,
        rows: counted.rows,
        nextCursor: range.upTo < head.total ? ctx.cursors.encode(range.upTo, fp) : null,
        cursor: paging.cursor,
        limit: paging.limit,
        sqlInfo: head.info,
      };
      return pageResult(p.compiled.shape, pages.info(p.plan, facts), rows);
    },
  };
}

function cursorStream<Req, Plan>(
  report: Report<Req, Plan>,
  pages: CursorPages<Req, Plan>,
  p: Prepared<Req, Plan>,
  ctx: CallContext,
): Framed {
  const paging = pages.paging(p.req, 'stream');
  const range: UnitRange = { after: 0, upTo: paging.maxResults };
  return {
    normalized: { plan: p.plan, paging },
    statements: [
      {
        role: 'stream (read in slices of units)',
        queries: (dialect) => pageStatements(p.compiled, range, dialect, paging.maxResults),
      },
    ],
    run: async () => shapedStream(report, pages, p, paging.maxResults, ctx),
  };
}

/**
 * A stream of a shaped report: the head statement, then the rows in order-preserving slices of units
 * (see `sliceRanges`), each pulled a chunk at a time on the stream's own connection. max_results caps
 * rows: with `unitRows` the head says how many units and rows that sends, and the last unit may be cut.
 */
function shapedStream<Req, Plan>(
  report: Report<Req, Plan>,
  pages: CursorPages<Req, Plan>,
  p: Prepared<Req, Plan>,
  cap: number | null,
  ctx: CallContext,
): RowsResult {
  const c = p.compiled;
  const byDate = pages.byDate;
  const order = byDate?.order(p.plan) ?? null;
  const sent: SliceCounter = { lastUnit: 0 };
  const sentOf = (head: Head) => head.sent ?? { units: unitsSent(head.total, cap), rows: unitsSent(head.total, cap) };
  const dialect = ctx.core.backend.dialect;
  const slices = (units: number) => {
    if (order === null || !byDate) return unitSlices(c, units, dialect);
    return dateSlices(
      byDate.window(p.plan),
      order,
      (start, end) => report.compile(byDate.within(p.plan, start, end), p.rollups),
      units,
      sent,
      dialect,
    );
  };
  // TRICKY: an answer read in one statement anyway (every group aggregated before the first row) takes
  // its head from that statement's first row, so nothing is computed twice.
  const whole = order === null && c.sliceUnits === Number.POSITIVE_INFINITY;
  const statements = whole
    ? streamStatements(
        ctx,
        'first row',
        () => pageStatements(c, { after: 0, upTo: cap }, dialect, cap),
        dictionaryColumns(c.shape),
      )
    : streamStatements(ctx, headQuery(c, cap), (h) => slices(sentOf(headOf(h)).units), dictionaryColumns(c.shape));
  return {
    kind: 'rows',
    framing: 'stream',
    shape: c.shape,
    read: async function* () {
      let rowsLeft = Number.POSITIVE_INFINITY;
      for await (const part of statements) {
        if ('batch' in part) {
          const units = part.batch.columns.unit!;
          sent.lastUnit = Math.max(sent.lastUnit, Number(units[units.length - 1] ?? 0));
          if (rowsLeft <= 0) continue;
          const batch = sliceBatch(part.batch, 0, rowsLeft);
          rowsLeft -= batch.length;
          yield { batch };
          continue;
        }
        const head = headOf(part.head);
        const { units, rows } = sentOf(head);
        if (head.sent) rowsLeft = rows;
        yield {
          head: pages.info(p.plan, {
            total: head.total,
            count: units,
            rows,
            nextCursor: null,
            cursor: null,
            limit: units,
            sqlInfo: head.info,
          }),
        };
      }
    },
  };
}

const unitsSent = (total: number, cap: number | null) => (cap === null ? total : Math.min(total, cap));
