/**
 * The pieces every report answer's types share (the library's typed surface, src/reports/report-types.ts).
 * A field a request may leave out of a row (a dimension not grouped by, a metric not asked for) is
 * optional; a value the engine can send as null is typed `| null`.
 */

/** A dimension's key as a v2 row carries it: its id and display name (the whole object null for rows without one). */
export interface Named {
  readonly id: string;
  readonly name: string;
}

/** What every v2 `info` holds: the page's counts and cursor, and the window and filter asked for. */
export interface V2Info {
  readonly total_results: number;
  readonly count: number;
  readonly next_cursor: string | null;
  /** The names of the models with answers in scope. */
  readonly models: string[];
  readonly start_date: string;
  readonly end_date: string;
  /** The request's filter as read (null without one). */
  readonly filter: FilterEcho | null;
  /** The answer's fingerprint (docs/extensions.md); the REST service sends it as the ETag. */
  readonly fingerprint?: string;
}

/** A filter echoed back: a condition `{field, op, value}` or an `and`/`or`/`not` of conditions. */
export type FilterEcho = {
  readonly [key: string]: string | number | boolean | null | FilterEcho | readonly (string | number | FilterEcho)[];
};

/**
 * The columns the extensions add to a row (docs/extensions.md): with `compare`, each metric's
 * `_previous`, `_change` and `_change_pct`; with `components`, each ratio's `_numerator` and `_denominator`.
 */
export type ExtensionFields = {
  readonly [
    name:
      | `${string}_previous`
      | `${string}_change`
      | `${string}_change_pct`
      | `${string}_numerator`
      | `${string}_denominator`
  ]: number | null | undefined;
};

/** `info.compare` with `compare`: the compared window. */
export interface CompareEcho {
  readonly start_date: string;
  readonly end_date: string;
}
