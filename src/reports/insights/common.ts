import { z } from 'zod';
import { valueError, ValidationError, type ValidationIssue } from '../../errors.ts';
import { checkFilter, compileFilter, type FilterCatalog, type FilterScope } from '../../query/filter-compiler.ts';
import {
  defaultFilterLimits,
  normalize,
  parseFilter,
  toWire,
  type FilterLimits,
  type FilterNode,
  type WireFilter,
} from '../../query/filter-node.ts';
import { laxInt, zDate, zUuid } from '../../query/schema-types.ts';
import { sql, type Fragment } from '../../query/sql.ts';
import { daysInclusive, type CalendarInterval } from '../../query/time.ts';

import type { ByDate, Paging } from '../core/cursor-framing.ts';
import type { V2Declaration } from '../v2-declaration.ts';
import type { DateOrder } from '../stream-slices.ts';
import type { AnswerColumns } from '../extensions/compared-answer.ts';
import type { DateSpan } from '../extensions/compared-dates.ts';
import type { Grouping } from './group-keys.ts';

/** The longest window a request reads, in days (three years); a compared window keeps it too. */
export const maxWindowDays = 3 * 366;

/** The FilterNode on the wire. Its structure is checked by parseFilter, which names every bad key. */
export const filterSchema = () =>
  z
    .unknown()
    .meta({ id: 'FilterNode', description: 'A leaf {field, op, value} or a group with exactly one of and, or, not.' });

/** Fields every Insights v2 report takes. */
export const insightsFields = {
  category_id: zUuid(),
  start_date: zDate().describe('YYYY-MM-DD, America/New_York, inclusive'),
  end_date: zDate().describe('YYYY-MM-DD, America/New_York, inclusive'),
  filter: filterSchema().optional().nullable(),
  cursor: z.string().max(4096).optional().nullable(),
};

export const pageLimit = (max: number, fallback: number) =>
  laxInt(z.int().min(1).max(max)).optional().nullable().describe(`page size, 1 to ${max}, default ${fallback}`);
export const maxResults = (max?: number) =>
  laxInt(max ? z.int().gt(0).max(max) : z.int().gt(0))
    .optional()
    .nullable()
    .describe('stream only: caps the rows');

/** start ≤ end and a bounded window. */
export function checkWindow(req: { start_date: string; end_date: string }): ValidationIssue[] {
  if (req.start_date > req.end_date)
    return [valueError(['body', 'end_date'], 'end_date must be on or after start_date', req.end_date)];
  const days = daysInclusive(req.start_date, req.end_date);
  if (days > maxWindowDays)
    return [
      valueError(
        ['body', 'end_date'],
        `the window is ${days} days long; at most ${maxWindowDays} are allowed`,
        req.end_date,
      ),
    ];
  return [];
}

export function checkUnique(values: readonly string[] | null | undefined, field: string): ValidationIssue[] {
  if (!values) return [];
  const seen = new Set<string>();
  for (const [i, v] of values.entries()) {
    if (seen.has(v)) return [valueError(['body', field, i], `duplicate value '${v}' in ${field}`, v)];
    seen.add(v);
  }
  return [];
}

/** Parses and checks a request filter; returns the normalized tree, or issues. */
export function readFilter(
  input: unknown,
  catalog: FilterCatalog,
  limits: FilterLimits = defaultFilterLimits,
): { node: FilterNode | null; issues: ValidationIssue[] } {
  if (input === undefined || input === null) return { node: null, issues: [] };
  try {
    const parsed = parseFilter(input, ['body', 'filter'], limits);
    const issues = checkFilter(parsed, catalog, ['body', 'filter']);
    return { node: issues.length === 0 ? normalize(parsed) : null, issues };
  } catch (error) {
    if (error instanceof ValidationError) return { node: null, issues: [...error.detail] };
    throw error;
  }
}

/** The filter as parsed and normalized, for plans (a checked request never fails here). */
export const echoFilter = (node: FilterNode | null): WireFilter | null => (node ? toWire(node) : null);

export function filterPredicate(node: FilterNode | null, catalog: FilterCatalog, scope: FilterScope): Fragment {
  return node ? compileFilter(node, catalog, scope) : sql`TRUE`;
}

/** Cursor paging of a v2 report; `fallback` is the page size its schema documents as the default. */
export const cursorPaging =
  (fallback: number) =>
  (req: { limit?: number | null; cursor?: string | null; max_results?: number | null }): Paging => ({
    limit: req.limit ?? fallback,
    cursor: req.cursor ?? null,
    maxResults: req.max_results ?? null,
  });

/** `byDate` of a report whose plan holds its window as startDate and endDate; `order` says how its answer leads with the date, if it does. */
export const windowedByDate = <Plan extends { startDate: string; endDate: string }>(
  order: (plan: Plan) => DateOrder | null,
): ByDate<Plan> => ({
  order,
  window: (plan) => ({ startDate: plan.startDate, endDate: plan.endDate }),
  within: (plan, start, end) => ({ ...plan, startDate: start, endDate: end }),
});

/** The answer columns of a report whose rows are its groups (`rank` their place), with these metric fields (`counts` among them). */
export const answerColumns = (
  g: Grouping,
  interval: CalendarInterval,
  metrics: readonly string[],
  counts: readonly string[] = [],
): AnswerColumns => {
  const date = g.dateColumn();
  return { keys: g.identities(), metrics, places: ['rank'], counts, date: date ? { column: date, interval } : null };
};

/** The `answer` of a v2 report windowed by inclusive dates: its columns, its window and the same plan over another. */
export const answerOver = <Plan extends DateSpan>(
  columns: (plan: Plan) => AnswerColumns | ((extension: 'fill' | 'compare') => string),
  dated = "add 'date' to group_by",
): NonNullable<V2Declaration<unknown, Plan & { categoryId: string }>['answer']> => ({
  dated,
  columns,
  window: (plan) => ({ startDate: plan.startDate, endDate: plan.endDate }),
  within: (plan, span) => ({ ...plan, startDate: span.startDate, endDate: span.endDate }),
});
