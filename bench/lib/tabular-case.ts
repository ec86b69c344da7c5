import type { Answer, OldFloor, ReportCase } from './case.ts';
import { envelopeSql, namedFloor, type Envelope, type Row } from './floor.ts';
import type { Body, ReportShape } from './requests.ts';

/** The tabular reports (v1 Insights, traffic): `{info: {total_rows}, data: [{metrics, dimensions}]}`, offset paging. */

const defaultLimit = 10_000;

const pagination = (b: Body) => (b.pagination ?? {}) as { limit?: number; offset?: number };

export const tabularShape = (window: ReportShape['window']): ReportShape => ({
  window,
  answer:
    (kind) =>
    (json: unknown): Answer => {
      if (kind === 'stream') return json;
      const { info, data } = json as { info: { total_rows: number }; data: unknown[] };
      return { total: info.total_rows, rows: data };
    },
  limit: (b) => pagination(b).limit ?? defaultLimit,
  groupFields: ['dimensions'],
  filterFields: ['filters', 'metric_filters'],
});

/**
 * The floor of a tabular report: CTEs ending with `rows` (`ord`, `seq` = 0, labels `d0…` as text and
 * metrics `m0…`), read as `{total, rows: [{metrics, dimensions}]}` for pages and the rows for streams.
 */
export function tabularFloor(ctes: string, e: Envelope, dimensions: number, metrics: number): OldFloor {
  const row = (r: Row) => ({
    metrics: Array.from({ length: metrics }, (_, j) => r[`m${j}`]),
    dimensions: Array.from({ length: dimensions }, (_, i) => r[`d${i}`]),
  });
  return namedFloor(
    envelopeSql(ctes, e),
    (rows) => {
      if (e.kind === 'stream') return rows.map(row);
      const [head, ...data] = rows;
      return { total: head!.total, rows: data.map(row) };
    },
    (e.page - 1) * e.limit,
  );
}

/** Page N of a tabular report is an offset of N − 1 pages. */
export const tabularPageBody: ReportCase['pageBody'] = (_org, body, page) => {
  const limit = pagination(body).limit ?? defaultLimit;
  return { ...body, pagination: { limit, offset: (page - 1) * limit } };
};
