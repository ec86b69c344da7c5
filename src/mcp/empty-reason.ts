import type { OrgScope } from '../library/org-scope.ts';
import { ident, render, sql, type SqlValue } from '../query/sql.ts';
import { closestNames } from './closest-names.ts';

/** Why an answer has no rows, in the order they are checked. */
export type EmptyReason =
  | { readonly reason: 'unknown_name'; readonly detail: string; readonly unknown: readonly UnknownName[] }
  | { readonly reason: 'outside_span'; readonly detail: string; readonly span: Span }
  | { readonly reason: 'filtered_out'; readonly detail: string }
  | { readonly reason: 'no_data_in_window'; readonly detail: string; readonly span: Span | null };

export interface UnknownName {
  readonly argument: string;
  readonly value: string;
  readonly closest: readonly string[];
}

/** The first and last day with data for the report's subject (the category, or the domain's traffic). */
export interface Span {
  readonly first_day: string | null;
  readonly last_day: string | null;
}

type Item = { id?: unknown; name?: unknown };

/** The arguments that narrow an answer, which a re-run drops to tell "filtered out" from "no data". */
export const filterArguments = ['filter', 'filters', 'metric_filters'] as const;

const listOf = (json: unknown): Item[] =>
  (Array.isArray(json)
    ? json
    : Array.isArray((json as { data?: unknown })?.data)
      ? (json as { data: Item[] }).data
      : []) as Item[];

/** Where the names a filter field takes are listed, for the category of the request. */
function vocabulary(scope: OrgScope, category: string | undefined): Record<string, () => Promise<Item[]>> {
  const inCategory = (name: string) => async () =>
    category ? listOf(await scope.resource(name)({ params: { category_id: category } })) : [];
  return {
    model: async () => listOf(await scope.resources.models!()),
    region: async () => listOf(await scope.resources.regions!()),
    persona: inCategory('categoryPersonas'),
    topic: inCategory('categoryTopics'),
    tag: inCategory('categoryTags'),
    asset: inCategory('categoryAssets'),
    domain: async () => listOf(await scope.resources.domains!()),
  };
}

/** The exact names and ids a request's positive filter leaves and subject arguments ask for, by field. */
function namesAsked(args: Record<string, unknown>): { field: string; argument: string; value: string }[] {
  const asked: { field: string; argument: string; value: string }[] = [];
  const field = (f: string) => f.replace(/_id$/, '').replace(/_name$/, '');
  const values = (v: unknown) => (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string');
  const walk = (node: unknown, at: string) => {
    if (node === null || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (Array.isArray(n.and)) n.and.forEach((c, i) => walk(c, `${at}.and[${i}]`));
    if (Array.isArray(n.or)) n.or.forEach((c, i) => walk(c, `${at}.or[${i}]`));
    if (typeof n.field === 'string' && (n.op === 'is' || n.op === 'in'))
      for (const v of values(n.value)) asked.push({ field: field(n.field), argument: `${at}.${n.field}`, value: v });
  };
  walk(args.filter, 'filter');
  if (Array.isArray(args.filters)) {
    args.filters.forEach((f: unknown, i) => {
      const x = f as { field?: unknown; operator?: unknown; value?: unknown };
      if (typeof x?.field === 'string' && (x.operator === undefined || x.operator === 'is' || x.operator === 'in'))
        for (const v of values(x.value))
          asked.push({ field: field(x.field), argument: `filters[${i}].${x.field}`, value: v });
    });
  }
  if (typeof args.asset === 'string') asked.push({ field: 'asset', argument: 'asset', value: args.asset });
  if (typeof args.domain === 'string') asked.push({ field: 'domain', argument: 'domain', value: args.domain });
  return asked;
}

/** The names and ids asked for that the organization does not have, each with the closest known names. */
export async function unknownNames(scope: OrgScope, args: Record<string, unknown>): Promise<UnknownName[]> {
  const lists = vocabulary(scope, typeof args.category_id === 'string' ? args.category_id : undefined);
  const loaded = new Map<string, Item[]>();
  const unknown: UnknownName[] = [];
  for (const a of namesAsked(args)) {
    const load = lists[a.field];
    if (!load) continue;
    if (!loaded.has(a.field)) loaded.set(a.field, await load());
    const items = loaded.get(a.field)!;
    if (items.length === 0 || items.some((x) => x.id === a.value || x.name === a.value)) continue;
    unknown.push({
      argument: a.argument,
      value: a.value,
      closest: closestNames(
        a.value,
        items.map((x) => String(x.name)),
      ),
    });
  }
  return unknown;
}

/** The days with data for the request's subject: its category's answers, or its domain's visits. */
/** Reads one row of a statement with bound parameters. */
export type ReadRow = (text: string, params: readonly SqlValue[]) => Promise<Record<string, unknown> | undefined>;

export async function dataSpan(
  read: ReadRow,
  organizationId: string,
  args: Record<string, unknown>,
  tool: string,
): Promise<Span | null> {
  const table = /^(bots|botsV1|rawBotLogs)$/.test(tool)
    ? 'bot_events'
    : /^referrals/.test(tool)
      ? 'referral_visits'
      : tool === 'rawLogs'
        ? 'request_log'
        : null;
  const q =
    typeof args.domain === 'string' && table
      ? sql`SELECT CAST(min(ts) AS DATE)::VARCHAR AS first_day, CAST(max(ts) AS DATE)::VARCHAR AS last_day FROM ${ident(table)} WHERE organization_id = ${organizationId} AND domain = ${args.domain}`
      : typeof args.category_id === 'string'
        ? sql`SELECT min(day)::VARCHAR AS first_day, max(day)::VARCHAR AS last_day FROM executions WHERE organization_id = ${organizationId} AND category_id = ${args.category_id}`
        : null;
  if (!q) return null;
  const r = render(q);
  const row = await read(r.text, r.params);
  return row
    ? { first_day: (row.first_day as string | null) ?? null, last_day: (row.last_day as string | null) ?? null }
    : null;
}

/** Whether a window (days, or instants whose first ten characters are the day) misses the span entirely. */
export function outsideSpan(window: { start: string; end: string }, span: Span): boolean {
  if (span.first_day === null || span.last_day === null) return true;
  return window.end.slice(0, 10) < span.first_day || window.start.slice(0, 10) > span.last_day;
}
