import { sliceBatch } from '../engine/column-reads.ts';
import { dictionaryColumns } from '../query/row-shape.ts';
import { plainPrepare, type CallContext, type PrepareOptions, type PreparedCall, type RowsResult } from './endpoint.ts';
import { prepareStream, type Prepared } from './paged-prepare.ts';
import type { PagedReport } from './paged-report.ts';
import { headOf, headQuery, pageStatements, type Head, type ShapedReport } from './rows-query.ts';
import { streamStatements } from './stream-payloads.ts';
import { dateSlices, unitSlices, type SliceCounter } from './stream-slices.ts';

/**
 * A stream of a shaped report: the head statement, then the rows in order-preserving slices of units
 * (see `sliceRanges`), each pulled a chunk at a time on the stream's own connection. max_results caps
 * rows: with `unitRows` the head says how many units and rows that sends, and the last unit may be cut.
 */
function shapedStream<Req, Plan>(report: PagedReport<Req, Plan>, p: Prepared<Plan>, ctx: CallContext): RowsResult {
  const c = p.compiled;
  const cap = p.paging.maxResults;
  const order = report.byDate?.order(p.plan) ?? null;
  const sent: SliceCounter = { lastUnit: 0 };
  const sentOf = (head: Head) => head.sent ?? { units: unitsSent(head.total, cap), rows: unitsSent(head.total, cap) };
  const dialect = ctx.core.backend.dialect;
  const slices = (units: number) => {
    if (order === null || !report.byDate) return unitSlices(c, units, dialect);
    const byDate = report.byDate;
    return dateSlices(
      byDate.window(p.plan),
      order,
      (start, end) => report.compile(byDate.within(p.plan, start, end), p.rollups) as ShapedReport,
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
          head: report.info(p.plan, {
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

/**
 * Streams `summary` then one `result` per row. Validation and data guards run before the stream is
 * returned, so a refusal is a 422 and never a broken stream; the statements run when it is read.
 */
export async function runStream<Req, Plan>(
  report: PagedReport<Req, Plan>,
  body: unknown,
  ctx: CallContext,
): Promise<RowsResult> {
  return preparedStream(report, body, ctx, plainPrepare).run();
}

export function preparedStream<Req, Plan>(
  report: PagedReport<Req, Plan>,
  body: unknown,
  ctx: CallContext,
  how: PrepareOptions,
): PreparedCall {
  return prepareStream(report, body, ctx, how, (p) => shapedStream(report, p, ctx));
}
