import type { FilterNode } from '../../src/query/filter-node.ts';
import type { Row } from '../helpers/arrow-fixture.ts';
import type { MoreV2Fixture } from '../fixtures/more-v2.ts';
import { byId, cmp, promptContext } from './context.ts';
import { evaluate } from './filter.ts';
import {
  answerPart,
  combinations,
  compareDims,
  dimensionReader,
  evaluateTree,
  isoSecond,
  type DimValue,
} from './groups.ts';

export interface SentimentQuery {
  category_id: string;
  start_date: string;
  end_date: string;
  asset: string;
  source?: 'asset' | 'citation';
  group_by?: string[];
  metrics?: string[];
  interval?: 'day' | 'week' | 'month';
  comparison?: [string, string];
  include_cited_websites?: boolean;
  filter?: FilterNode;
}

type Leaf = Extract<FilterNode, { kind: 'leaf' }>;
const rowFields = ['theme', 'claim'];

interface Group {
  keys: DimValue[];
  n: number;
  positive: number;
  answers: Set<string>;
  hits: Row[];
}

/** Every row the v2 sentiment report should return, in order, computed the plain way. */
export function referenceSentiment(f: MoreV2Fixture, q: SentimentQuery): Record<string, unknown>[] {
  const prompts = byId(f.prompts);
  const themes = byId(f.themes);
  const claims = byId(f.sentiment_claims);
  const assets = (f.assets ?? []).filter((a) => a.category_id === q.category_id);
  const executions = byId(f.executions);
  const context = promptContext(f);
  const dimsOf = dimensionReader(f, q.interval ?? 'day');
  const target = assets.find((a) => a.name === q.asset || a.id === q.asset)!;
  const groupBy = q.source === 'citation' ? ['page'] : (q.group_by ?? []);
  const ref = (table: Map<string, Row>, id: unknown): DimValue => ({
    key: String(id),
    name: String(table.get(String(id))!.name),
  });

  const leaf =
    (r: Row) =>
    (l: Leaf): boolean => {
      const values = (Array.isArray(l.value) ? l.value : [l.value]).map(String);
      if (l.field === 'theme')
        return values.includes(String(r.theme_id)) || values.includes(String(themes.get(String(r.theme_id))!.name));
      if (l.field === 'claim')
        return values.includes(String(r.claim_id)) || values.includes(String(claims.get(String(r.claim_id))!.name));
      return evaluate(l, context(r));
    };
  const answerClauses = answerPart(q.filter, rowFields);
  const pagesOf = (r: Row, from: string, to: string) => [
    ...new Set(
      f.citations
        .filter(
          (c) =>
            c.execution_id === r.execution_id &&
            c.category_id === q.category_id &&
            String(c.day) >= from &&
            String(c.day) <= to,
        )
        .map((c) => String(c.url)),
    ),
  ];

  const valuesOf = (r: Row, d: string, from: string, to: string): DimValue[] => {
    switch (d) {
      case 'theme':
        return [ref(themes, r.theme_id)];
      case 'claim':
        return [ref(claims, r.claim_id)];
      case 'competitor':
        return [ref(byId(assets), r.asset_id)];
      case 'run':
        return [{ key: String(r.execution_id), name: String(r.execution_id) }];
      case 'page':
        return pagesOf(r, from, to).map((u) => ({ key: u, name: u }));
      default:
        return dimsOf(d, r);
    }
  };

  const compute = (from: string, to: string) => {
    const rows = f.sentiments.filter(
      (r) =>
        r.category_id === q.category_id &&
        String(r.day) >= from &&
        String(r.day) <= to &&
        (prompts.get(String(r.prompt_id))!.analysis_types as string[]).includes('sentiment') &&
        (groupBy.includes('competitor') ? r.asset_id !== target.id : r.asset_id === target.id) &&
        answerClauses.every((c) => evaluateTree(c, leaf(r))),
    );
    const groups = new Map<string, Group>();
    const denominators = new Map<string, Set<string>>();
    const answerDims = groupBy.map((d, i) => ({ d, i })).filter(({ d }) => !rowFields.includes(d));
    for (const r of rows) {
      const hit = !q.filter || evaluateTree(q.filter, leaf(r));
      for (const keys of combinations(groupBy.map((d) => valuesOf(r, d, from, to)))) {
        const dk = JSON.stringify(answerDims.map(({ i }) => keys[i]!.key));
        if (!denominators.has(dk)) denominators.set(dk, new Set());
        denominators.get(dk)!.add(String(r.execution_id));
        if (!hit) continue;
        const k = JSON.stringify(keys.map((v) => v.key));
        if (!groups.has(k)) groups.set(k, { keys, n: 0, positive: 0, answers: new Set(), hits: [] });
        const g = groups.get(k)!;
        g.n++;
        if (r.sentiment_type === 'positive') g.positive++;
        g.answers.add(String(r.execution_id));
        g.hits.push(r);
      }
    }
    const metricsOf = (g: Group) => {
      const positive = (100 * g.positive) / g.n;
      const den = denominators.get(JSON.stringify(answerDims.map(({ i }) => g.keys[i]!.key)))!.size;
      return {
        positive_sentiment: positive,
        negative_sentiment: 100 - positive,
        occurrence: (100 * g.answers.size) / den,
      };
    };
    return { groups, metricsOf };
  };

  const current = compute(q.start_date, q.end_date);
  const previous = q.comparison ? compute(q.comparison[0], q.comparison[1]) : null;
  const metrics = q.metrics ?? ['positive_sentiment', 'negative_sentiment'];
  const dateAt = groupBy.indexOf('date');
  const ordered = [...current.groups.values()].sort(
    (a, b) =>
      (dateAt >= 0 ? cmp(a.keys[dateAt]!.key, b.keys[dateAt]!.key) : 0) ||
      b.n - a.n ||
      compareDims(groupBy, a.keys, b.keys),
  );
  const ranks = new Map<Group, number>();
  let bucket: string | null | undefined;
  let rank = 0;
  for (const g of ordered) {
    const b = dateAt >= 0 ? g.keys[dateAt]!.key : '';
    rank = b === bucket ? rank + 1 : 1;
    bucket = b;
    ranks.set(g, rank);
  }
  const pick = (m: Record<string, number>) => Object.fromEntries(metrics.map((k) => [k, m[k]]));
  return ordered.map((g) => {
    const row: Record<string, unknown> = {};
    groupBy.forEach((d, i) => {
      const v = g.keys[i]!;
      if (d === 'date') row.date = v.key;
      else if (d === 'page') row.page = v.key;
      else if (d === 'run') row.run = { id: v.key, created_at: isoSecond(executions.get(v.key!)!.executed_at) };
      else row[d] = v.key === null ? null : { id: v.key, name: v.name };
    });
    row.rank = ranks.get(g);
    Object.assign(row, pick(current.metricsOf(g)));
    if (previous) {
      const p = previous.groups.get(JSON.stringify(g.keys.map((v) => v.key)));
      row.previous = p ? pick(previous.metricsOf(p)) : null;
    }
    if (q.include_cited_websites) {
      const answers = new Set(g.hits.map((r) => String(r.execution_id)));
      const counts = new Map<string, Set<string>>();
      for (const c of f.citations) {
        if (
          !answers.has(String(c.execution_id)) ||
          c.category_id !== q.category_id ||
          String(c.day) < q.start_date ||
          String(c.day) > q.end_date
        )
          continue;
        counts.set(String(c.url), (counts.get(String(c.url)) ?? new Set()).add(String(c.execution_id)));
      }
      row.cited_websites = [...counts]
        .sort((a, b) => b[1].size - a[1].size || cmp(a[0], b[0]))
        .slice(0, 10)
        .map(([u]) => u);
    }
    return row;
  });
}
