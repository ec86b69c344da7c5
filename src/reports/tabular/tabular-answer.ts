/**
 * The tabular family's answer (v1 Insights, traffic and raw logs): `{info: {total_rows, query}, data}`
 * where each row holds its metrics and its dimensions' labels as arrays, in the order the request named
 * them. A metric with no value (a ratio over nothing, no latest visit in a filled bucket) is null.
 */
export interface TabularInfo {
  /** Rows before pagination. */
  readonly total_rows: number;
  /** The request as read: window in the report's zone, metrics, dimensions, filters, order and page. */
  readonly query: TabularQuery;
  readonly fingerprint?: string;
}

export interface TabularQuery {
  readonly start_date: string;
  readonly end_date: string;
  readonly metrics: string[];
  readonly dimensions: string[];
  readonly date_interval: string;
  readonly filters: {
    readonly field: string;
    readonly operator: string;
    readonly value: string | number | boolean | (string | number)[];
  }[];
  readonly order_by: { readonly [key: string]: 'asc' | 'desc' };
  readonly pagination: { readonly limit: number | null; readonly offset: number };
  readonly category_id?: string;
  readonly domain?: string;
  readonly organization_id?: string;
  readonly metric_filters?: { readonly field: string; readonly operator: string; readonly value: number }[];
  readonly timezone?: string;
  readonly view_id?: string | null;
}

export interface TabularRow {
  readonly metrics: (number | null)[];
  readonly dimensions: (string | null)[];
}

/** The stream's first event: the total and the request as read. */
export interface TabularSummary {
  readonly query: TabularQuery;
  readonly total_rows: number;
}
