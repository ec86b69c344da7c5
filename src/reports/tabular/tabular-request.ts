import { z } from 'zod';
import { valueError, type ValidationIssue } from '../../errors.ts';
import {
  zoneName,
  formatInstant,
  instantError,
  resolveInstant,
  toIso,
  type InstantWindow,
} from '../../query/instants.ts';
import { laxInt, laxNumber } from '../../query/schema-types.ts';
import { maxWindowDays } from '../insights/common.ts';

/** Request pieces every tabular report shares, and their semantic reading. */

export const defaultPageLimit = 10_000;
export const maxPageLimit = 50_000;

export type Direction = 'asc' | 'desc';

export interface Ordering {
  readonly key: string;
  readonly dir: Direction;
}

export interface MetricFilter {
  readonly field: string;
  readonly value: number;
}

export interface Pagination {
  /** Null on a stream without pagination: every row. */
  readonly limit: number | null;
  readonly offset: number;
}

/** A date or instant in any of the accepted forms; the report reads it in its own zone. */
export const zInstantText = () =>
  z
    .string()
    .check(
      z.superRefine((value, ctx) => {
        const error = instantError(value);
        if (error) ctx.addIssue({ code: 'custom', message: error, input: value });
      }),
    )
    .describe(
      'YYYY-MM-DD, YYYY-MM-DD HH:MM, YYYY-MM-DD HH:MM:SS or ISO 8601; without an offset it is read in the report’s zone',
    );

export const orderBySchema = () =>
  z
    .record(z.string(), z.enum(['asc', 'desc']))
    .describe('{<metric or dimension>: asc | desc}; default: the first metric, descending');

export const paginationSchema = () =>
  z.strictObject({
    limit: laxInt(z.int().min(1).max(maxPageLimit))
      .optional()
      .nullable()
      .describe(`rows per page, 1 to ${maxPageLimit}, default ${defaultPageLimit}`),
    offset: laxInt(z.int().min(0)).optional().nullable().describe('rows to skip, default 0'),
  });

/** A number that must be present: a missing value is Pydantic's `missing`, not a type error. */
const requiredNumber = () =>
  z
    .unknown()
    .check(
      z.superRefine((v, ctx) => {
        if (v === undefined)
          ctx.addIssue({ code: 'custom', message: 'Field required', params: { type: 'missing' }, input: v });
      }),
    )
    .pipe(laxNumber());

export const metricFiltersSchema = () =>
  z
    .array(z.strictObject({ field: z.string(), value: requiredNumber() }))
    .max(50)
    .describe('after aggregation: keeps rows whose metric `field` is at least `value`');

export const timezoneSchema = () => z.string().describe('IANA time zone, e.g. Europe/Berlin; default UTC');

/** Collects semantic issues while a request is read into a plan. */
export class Issues {
  readonly list: ValidationIssue[] = [];
  add(...issues: ValidationIssue[]): void {
    this.list.push(...issues);
  }
}

export function readUnique(values: readonly string[], field: string, issues: Issues): string[] {
  const seen = new Set<string>();
  values.forEach((v, i) => {
    if (seen.has(v)) issues.add(valueError(['body', field, i], `duplicate value '${v}' in ${field}`, v));
    seen.add(v);
  });
  return [...seen];
}

/**
 * `order_by` keys in request order. A key must be a requested metric or dimension (`dimensionKeys`
 * narrows which dimensions may sort). Without order_by the first metric sorts, descending.
 */
export function readOrderBy(
  input: Record<string, Direction> | null | undefined,
  metrics: readonly string[],
  dimensions: readonly string[],
  issues: Issues,
  dimensionKeys: readonly string[] = dimensions,
): Ordering[] {
  const entries = Object.entries(input ?? {});
  if (entries.length === 0) return [{ key: metrics[0]!, dir: 'desc' }];
  const allowed = [...metrics, ...dimensions.filter((d) => dimensionKeys.includes(d))];
  for (const [key] of entries) {
    if (!allowed.includes(key))
      issues.add(
        valueError(
          ['body', 'order_by', key],
          `order_by takes a requested metric or dimension: ${allowed.join(', ')}`,
          key,
        ),
      );
  }
  return entries.map(([key, dir]) => ({ key, dir }));
}

export function readMetricFilters(
  input: readonly { field: string; value: number }[] | null | undefined,
  metrics: readonly string[],
  issues: Issues,
): MetricFilter[] {
  (input ?? []).forEach((f, i) => {
    if (!metrics.includes(f.field))
      issues.add(
        valueError(
          ['body', 'metric_filters', i, 'field'],
          `metric_filters takes a requested metric: ${metrics.join(', ')}`,
          f.field,
        ),
      );
  });
  return (input ?? []).map((f) => ({ field: f.field, value: f.value }));
}

export function readPagination(
  input: { limit?: number | null; offset?: number | null } | null | undefined,
  mode: 'page' | 'stream',
): Pagination {
  const limit = input?.limit ?? (mode === 'page' ? defaultPageLimit : null);
  return { limit, offset: input?.offset ?? 0 };
}

export function readZone(input: string | null | undefined, fallback: string, issues: Issues): string {
  if (input === undefined || input === null) return fallback;
  const zone = zoneName(input);
  if (!zone)
    issues.add(
      valueError(
        ['body', 'timezone'],
        `'${input}' is not an IANA time zone name such as UTC, Europe/Berlin or Asia/Kolkata`,
        input,
      ),
    );
  return zone ?? fallback;
}

/**
 * The half-open window `[start, end)` of a tabular report. Dates without an offset are read in
 * `zone`; a date alone is the start of that day. `end` defaults to now.
 */
export function readWindow(
  start: string,
  end: string | null | undefined,
  zone: string,
  now: Date,
  issues: Issues,
): { window: InstantWindow; startMs: number; endMs: number } {
  const startMs = resolveInstant(start, zone);
  const endMs = end === undefined || end === null ? now.getTime() : resolveInstant(end, zone);
  if (endMs <= startMs) {
    issues.add(
      valueError(
        ['body', end === undefined || end === null ? 'start_date' : 'end_date'],
        `end_date (${formatInstant(endMs, zone)}) must be after start_date (${formatInstant(startMs, zone)})`,
        end ?? start,
      ),
    );
  } else if (endMs - startMs > maxWindowDays * 86_400_000) {
    issues.add(valueError(['body', 'end_date'], `the window is longer than ${maxWindowDays} days`, end ?? null));
  }
  return { window: { start: toIso(startMs), end: toIso(endMs) }, startMs, endMs };
}
