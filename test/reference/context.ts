import type { Row, Rows } from '../helpers/arrow-fixture.ts';
import type { Candidate, FieldValues } from './filter.ts';

export const byId = (rows: Row[] | undefined) => new Map((rows ?? []).map((r) => [String(r.id), r]));

/** The ET calendar bucket of a `YYYY-MM-DD` day: the day, its ISO week's Monday, or the 1st of its month. */
export function bucketOf(day: string, interval: 'day' | 'week' | 'month'): string {
  if (interval === 'month') return `${day.slice(0, 7)}-01`;
  if (interval === 'week') {
    const d = new Date(`${day}T00:00:00Z`);
    const back = (d.getUTCDay() + 6) % 7;
    return new Date(d.getTime() - back * 86_400_000).toISOString().slice(0, 10);
  }
  return day;
}

/** Compares like SQL ORDER BY over strings: NULLs last, then byte order (ASCII fixtures). */
export function cmp(a: string | number | null | undefined, b: string | number | null | undefined): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  return a < b ? -1 : 1;
}

export const inWindow = (r: Row, q: { category_id: string; start_date: string; end_date: string }) =>
  r.category_id === q.category_id && String(r.day) >= q.start_date && String(r.day) <= q.end_date;

/**
 * What the prompt-level filter fields see for a fact row (which repeats its answer's context): each a
 * list of {id, name}, empty when the value is missing. Topic and tags come from the current prompt.
 */
export function promptContext(f: Rows): (r: Row) => FieldValues {
  const models = byId(f.models);
  const regions = byId(f.regions);
  const personas = byId(f.personas);
  const prompts = byId(f.prompts);
  const topics = byId(f.topics);
  const tags = byId(f.tags);
  const named = (m: Map<string, Row>, id: unknown, nameKey = 'name'): Candidate[] =>
    id == null ? [] : [{ id: String(id), name: String(m.get(String(id))?.[nameKey] ?? '') }];
  return (r) => {
    const p = prompts.get(String(r.prompt_id))!;
    return {
      model: named(models, r.model_id),
      region: named(regions, r.region_id),
      persona: named(personas, r.persona_id),
      prompt: named(prompts, r.prompt_id, 'prompt'),
      topic: named(topics, p.topic_id),
      tag: (p.tag_ids as string[]).map((t) => ({ id: t, name: String(tags.get(t)?.name ?? '') })),
    };
  };
}
