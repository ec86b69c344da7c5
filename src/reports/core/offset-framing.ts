import { dictionaryColumns } from '../../query/row-shape.ts';
import type { CallContext, RowsResult } from '../endpoint.ts';
import { pageResult, pageStatement, readPage } from '../read-rows.ts';
import { headOf, pageStatements, type UnitRange } from '../rows-query.ts';
import { streamStatements } from '../stream-payloads.ts';
import type { Pagination } from '../tabular/tabular-request.ts';
import type { Framing, Prepared } from './report.ts';

/** What the v1 framing reads from a plan: its page, its `info`, and the stream's first event. */
export interface OffsetPages<Plan> {
  pagination(plan: Plan): Pagination;
  info(plan: Plan, total: number): Record<string, unknown>;
  summary(plan: Plan, total: number): Record<string, unknown>;
  /** What the answer's fingerprint hashes: the plan as answered. */
  normalized(plan: Plan): unknown;
}

/** The units a request's pagination selects. */
export function pageRange(p: Pagination): UnitRange {
  return { after: p.offset, upTo: p.limit === null ? null : p.offset + p.limit };
}

/**
 * The v1 framing: a page is `{info: {total_rows, …}, data}` at an offset; a stream sends `summary`
 * (`{query, total_rows}`, the total before pagination), then one event per row in the shape of a data
 * entry. Both read the page's one statement.
 */
export function offsetFraming<Req, Plan>(pages: OffsetPages<Plan>): Framing<Req, Plan> {
  const range = (p: Prepared<Req, Plan>) => pageRange(pages.pagination(p.plan));
  return {
    streamSummary: 'Server-Sent Events: {query, total_rows}, then one event per row',
    page: (_report, p, ctx) => ({
      normalized: pages.normalized(p.plan),
      statements: [pageStatement(ctx, p.compiled, range(p))],
      run: () => offsetPage(pages, p, ctx),
    }),
    stream: (_report, p, ctx) => ({
      normalized: pages.normalized(p.plan),
      statements: [{ role: 'stream', queries: (dialect) => pageStatements(p.compiled, range(p), dialect) }],
      run: async () => offsetStream(pages, p, ctx),
    }),
  };
}

async function offsetPage<Req, Plan>(pages: OffsetPages<Plan>, p: Prepared<Req, Plan>, ctx: CallContext) {
  const { head, rows } = await readPage(ctx, p.compiled, pageRange(pages.pagination(p.plan)));
  return pageResult(p.compiled.shape, pages.info(p.plan, head.total), rows);
}

/**
 * Every event's data is JSON, since the official client parses each one and ignores event names. Rows
 * are pulled a chunk at a time; stopping early interrupts the query.
 */
function offsetStream<Req, Plan>(pages: OffsetPages<Plan>, p: Prepared<Req, Plan>, ctx: CallContext): RowsResult {
  const range = pageRange(pages.pagination(p.plan));
  return {
    kind: 'rows',
    framing: 'stream',
    shape: p.compiled.shape,
    read: async function* () {
      for await (const part of streamStatements(
        ctx,
        'first row',
        () => pageStatements(p.compiled, range, ctx.core.backend.dialect),
        dictionaryColumns(p.compiled.shape),
      )) {
        yield 'batch' in part ? part : { head: pages.summary(p.plan, headOf(part.head).total) };
      }
    },
  };
}
