import { z } from 'zod';
import { laxBool } from '../../query/schema-types.ts';
import { parseWith } from '../../query/validation.ts';
import { readCompare, type CompareSpec } from './compare-window.ts';

/**
 * The extensions a report takes beyond the spec: one definition every face reads. They travel outside
 * the spec's strict request body: as URL query parameters (HTTP), as `aea query` flags (turned into the
 * same query parameters) and as library options (passed through as the same values), so all three
 * are parsed here and a bad one is a 422 located at `["query", name]`, as is any other query parameter
 * (a misspelt extension is refused, never ignored).
 */
export const extensionsSchema = z.strictObject({
  explain: laxBool().optional().meta({
    description:
      'true: answer, without reading data, the normalized request, the plan, the SQL with its parameters, the rollups considered and chosen, and DuckDB’s EXPLAIN of each statement (docs/extensions.md). Answers JSON: a table format in Accept is a 422.',
  }),
  fill: z.enum(['zero']).optional().meta({
    description:
      'zero: every time bucket of the window appears for every group key seen in the window, missing ones with zero counts and null ratios; needs the date dimension (v2: date in group_by, or an interval on channels and videos). Zero rows page like others (docs/extensions.md). Every v2 report with dated rows and the tabular reports (v1 Insights, traffic).',
  }),
  components: laxBool().optional().meta({
    description:
      'true: each ratio metric is followed by its numerator and denominator (<metric>_numerator, <metric>_denominator, named in info.query.metrics; v2 rows gain the same fields), so sums over rows re-aggregate it exactly. v2 visibility, fan-outs, fact-check, claim sections, sentiment and shopping; v1 visibility and query fan-outs.',
  }),
  compare: z.string().max(80).optional().meta({
    description:
      'previous_period, previous_year or START..END (dates as the body takes them): each metric gains <metric>_previous, <metric>_change and <metric>_change_pct columns (named in info.query.metrics; info.query.compare names the window), rows matched on their group keys, date buckets by their place in the window; v2 rows gain the same fields and info.compare. Every v2 report (fact-check claims with a group_by) and the tabular reports (v1 Insights, traffic); not the raw answers and logs.',
  }),
});

export type ExtensionInput = z.input<typeof extensionsSchema>;

export interface Extensions {
  readonly explain: boolean;
  /** `zero`: every time bucket of the window for every group key seen (docs/extensions.md). */
  readonly fill: 'zero' | null;
  /** The window each metric is compared with (docs/extensions.md). */
  readonly compare: CompareSpec | null;
  /** Each ratio's numerator and denominator beside it (docs/extensions.md). */
  readonly components: boolean;
}

/** Extensions that change the answer, which an endpoint takes only where it declares them (explain works everywhere). */
export type AnswerExtension = 'fill' | 'compare' | 'components';

/** The extensions a request asks for, from its query parameters (or the library's options in the same form). */
export function parseExtensions(query: Record<string, unknown> | undefined): Extensions {
  const parsed = parseWith(extensionsSchema, query ?? {}, 'query');
  return {
    explain: parsed.explain === true,
    fill: parsed.fill ?? null,
    compare: parsed.compare === undefined ? null : readCompare(parsed.compare),
    components: parsed.components === true,
  };
}

/** Where each answer extension applies, for the refusal elsewhere. */
export const appliesTo: Record<AnswerExtension, string> = {
  fill: 'the v2 reports and the tabular reports (v1 Insights, traffic) with the date dimension; raw answers and raw logs list events, not dated groups',
  compare:
    'the v2 reports and the tabular reports (v1 Insights, traffic bots and referrals); raw answers and raw logs list events, which no other window shares',
  components:
    'the reports whose ratios have a numerator and a denominator: v2 visibility, fan-outs, fact-check, claims, sentiment and shopping; v1 visibility and query fan-outs',
};

/** The answer extensions a request asks for. */
export const askedFor = (e: Extensions): AnswerExtension[] => [
  ...(e.fill ? ['fill' as const] : []),
  ...(e.compare ? ['compare' as const] : []),
  ...(e.components ? ['components' as const] : []),
];

/** The query parameters of an endpoint taking these answer extensions, for OpenAPI. */
export const querySchemaFor = (takes: readonly AnswerExtension[]) =>
  extensionsSchema.pick({ explain: true, ...Object.fromEntries(takes.map((t) => [t, true])) });
