import type { FilterNode } from '../../src/query/filter-node.ts';
import type { Row } from '../helpers/arrow-fixture.ts';
import type { MoreV2Fixture } from '../fixtures/more-v2.ts';
import { byId, cmp, promptContext } from './context.ts';
import { evaluate } from './filter.ts';
import { analysisTypeLeaf, evaluateTree, isoSecond, v2Types } from './groups.ts';

export interface AnswersQuery {
  category_id: string;
  start_date: string;
  end_date: string;
  include?: string[];
  filter?: FilterNode;
}

const v2Fields = [
  'run_id',
  'date',
  'model',
  'topic',
  'topic_id',
  'persona',
  'region',
  'tags',
  'prompt',
  'prompt_id',
  'response',
  'mentions',
  'citations',
  'search_queries',
  'analysis_types',
];

/** The values of one answer, read from the plain rows. */
export function answerFacts(f: MoreV2Fixture) {
  const prompts = byId(f.prompts);
  const names = (rows: Row[] | undefined) => new Map((rows ?? []).map((r) => [String(r.id), String(r.name)]));
  const [models, regions, personas, topics, tags, assets, themes] = [
    f.models,
    f.regions,
    f.personas,
    f.topics,
    f.tags,
    f.assets,
    f.themes,
  ].map(names);
  const of = <T>(rows: Row[], e: Row, pick: (r: Row) => T): T[] =>
    rows
      .filter((r) => r.execution_id === e.id)
      .sort((a, b) => Number(a.position) - Number(b.position))
      .map(pick);
  return (e: Row) => {
    const p = prompts.get(String(e.prompt_id))!;
    const sentimentPairs = [
      ...new Set(
        f.sentiments
          .filter((s) => s.execution_id === e.id)
          .map((s) => JSON.stringify([themes!.get(String(s.theme_id)), s.sentiment_type])),
      ),
    ]
      .map((j) => JSON.parse(j) as [string, string])
      .sort((a, b) => cmp(a[0], b[0]) || cmp(a[1], b[1]));
    return {
      prompt: p,
      model: models!.get(String(e.model_id))!,
      region: regions!.get(String(e.region_id))!,
      persona: e.persona_id == null ? null : personas!.get(String(e.persona_id))!,
      topic: topics!.get(String(p.topic_id))!,
      tags: [...new Set(p.tag_ids as string[])].map((t) => tags!.get(t)!).sort(cmp),
      asset: p.asset_id == null ? null : assets!.get(String(p.asset_id))!,
      mentions: f.mentions
        .filter((m) => m.execution_id === e.id)
        .sort(
          (a, b) =>
            Number(a.position) - Number(b.position) ||
            cmp(assets!.get(String(a.asset_id)), assets!.get(String(b.asset_id))),
        )
        .map((m) => assets!.get(String(m.asset_id))!),
      citations: of(f.citations, e, (c) => String(c.url)),
      hosts: of(f.citations, e, (c) => String(c.hostname).toLowerCase()),
      queries: of(f.fanouts, e, (q) => String(q.query)),
      sentimentThemes: sentimentPairs.map(([name, type]) => ({ name, type })),
      themes: [...new Set(sentimentPairs.map(([name]) => name))],
    };
  };
}

/** Every row the v2 prompt answers report should return, newest first, computed the plain way. */
export function referenceAnswers(f: MoreV2Fixture, q: AnswersQuery): Record<string, unknown>[] {
  const facts = answerFacts(f);
  const context = promptContext(f);
  const leaf =
    (e: Row) =>
    (l: Extract<FilterNode, { kind: 'leaf' }>): boolean => {
      const values = (Array.isArray(l.value) ? l.value : [l.value]).map(String);
      if (l.field === 'analysis_type') return analysisTypeLeaf(l, facts(e).prompt);
      if (l.field === 'page') return facts(e).citations.some((u) => values.includes(u));
      if (l.field === 'domain') return facts(e).hosts.some((h) => values.some((v) => v.toLowerCase() === h));
      return evaluate(l, context(e));
    };
  const include = q.include ?? v2Fields;
  return f.executions
    .filter(
      (e) =>
        e.category_id === q.category_id &&
        String(e.day) >= q.start_date &&
        String(e.day) <= q.end_date &&
        (!q.filter || evaluateTree(q.filter, leaf(e))),
    )
    .sort(
      (a, b) =>
        new Date(String(b.executed_at)).getTime() - new Date(String(a.executed_at)).getTime() ||
        cmp(String(a.id), String(b.id)),
    )
    .map((e) => {
      const x = facts(e);
      const all: Record<string, unknown> = {
        run_id: e.id,
        date: isoSecond(e.executed_at),
        model: { id: e.model_id, name: x.model },
        topic: x.topic,
        topic_id: x.prompt.topic_id,
        persona: x.persona,
        region: x.region,
        tags: x.tags,
        prompt: x.prompt.prompt,
        prompt_id: e.prompt_id,
        response: e.response,
        mentions: x.mentions,
        citations: x.citations,
        search_queries: x.queries,
        analysis_types: v2Types(x.prompt),
      };
      return Object.fromEntries(v2Fields.filter((k) => include.includes(k)).map((k) => [k, all[k]]));
    });
}
