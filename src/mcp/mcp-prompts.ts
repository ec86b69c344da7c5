/** An MCP prompt: a common question, written as the steps that answer it with this server's tools. */
export interface McpPrompt {
  readonly name: string;
  readonly description: string;
  readonly arguments: readonly { name: string; description: string; required: boolean }[];
  text(args: Record<string, string | undefined>): string;
}

const category = {
  name: 'category_id',
  description: 'the category (see the resource aea://org/categories)',
  required: true,
};

/** The calendar month before `today`'s, as inclusive dates. */
export function lastMonth(today: Date): { start: string; end: string } {
  const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 0));
  return { start: first.toISOString().slice(0, 10), end: last.toISOString().slice(0, 10) };
}

export const mcpPrompts = (clock: () => Date): McpPrompt[] => [
  {
    name: 'visibility_change',
    description: 'How did our visibility change last month, and why?',
    arguments: [
      category,
      { name: 'month_start', description: 'first day of the month (YYYY-MM-DD); default: last month', required: false },
      { name: 'month_end', description: 'its last day', required: false },
    ],
    text: (a) => {
      const m = a.month_start && a.month_end ? { start: a.month_start, end: a.month_end } : lastMonth(clock());
      return [
        `How did our brand's visibility change from the month before to ${m.start} .. ${m.end} in category ${a.category_id}, and why?`,
        `1. Call visibility with {"category_id": "${a.category_id}", "start_date": "${m.start}", "end_date": "${m.end}", "scope": "owned", "compare": "previous_period"}: read visibility_score, share_of_voice and average_position with their _previous and _change values.`,
        `2. Find where it moved: call visibility again with "group_by": ["model"], then ["topic"], with the same compare; name the models and topics with the largest changes.`,
        `3. Explain it: call citations with {"category_id": "${a.category_id}", "start_date": "${m.start}", "end_date": "${m.end}", "group_by": ["page"], "compare": "previous_period"} and say which cited pages gained or lost citations.`,
        'State each metric’s definition as the tool descriptions give it (resource aea://model/metrics), the window and the filters of every answer, and its fingerprint. If an answer is empty, report its empty_reason.',
      ].join('\n');
    },
  },
  {
    name: 'competitor_only_domains',
    description: 'Which domains cite competitors but not us?',
    arguments: [
      category,
      { name: 'start_date', description: 'YYYY-MM-DD; default: last month', required: false },
      { name: 'end_date', description: 'YYYY-MM-DD', required: false },
    ],
    text: (a) => {
      const m = a.start_date && a.end_date ? { start: a.start_date, end: a.end_date } : lastMonth(clock());
      return [
        `Which domains are cited in answers of category ${a.category_id} between ${m.start} and ${m.end} with pages that mention competitors but not our brand?`,
        `1. Call categoryAssets with {"category_id": "${a.category_id}"}: is_owned marks our brands, the others are competitors.`,
        `2. Call citationsV1 with {"category_id": "${a.category_id}", "start_date": "${m.start}", "end_date": "${m.end}", "dimensions": ["root_domain"], "metrics": ["count", "citation_share"], "filters": [{"field": "mentioned", "value": false}]}: the domains whose cited pages do not mention us.`,
        `3. Call citations with {"category_id": "${a.category_id}", "start_date": "${m.start}", "end_date": "${m.end}", "scope": "owned"}: the domains cited as ours; leave those out.`,
        'List the remaining domains by citation count, with the window and filters of each answer, and continue with next_cursor while it is not null.',
      ].join('\n');
    },
  },
  {
    name: 'top_cited_pages',
    description: 'Which pages do answer engines cite most for this category, and on which models?',
    arguments: [
      category,
      { name: 'start_date', description: 'YYYY-MM-DD; default: last month', required: false },
      { name: 'end_date', description: 'YYYY-MM-DD', required: false },
    ],
    text: (a) => {
      const m = a.start_date && a.end_date ? { start: a.start_date, end: a.end_date } : lastMonth(clock());
      return [
        `Call citations with {"category_id": "${a.category_id}", "start_date": "${m.start}", "end_date": "${m.end}", "group_by": ["page", "model"], "metrics": ["count", "citation_share", "rank"]}.`,
        'Summarize the ten most cited pages and the models citing them; give citation_share’s definition from the tool description and the answer’s fingerprint.',
      ].join('\n');
    },
  },
];
