import type { FilterNode } from '../../src/query/filter-node.ts';
import type { Row } from '../helpers/arrow-fixture.ts';
import type { ClaimsFixture } from '../fixtures/claims.ts';
import { byId, cmp, inWindow, promptContext } from './context.ts';
import { evaluate } from './filter.ts';
import { combinations, compareDims, dimensionReader, dimField, type DimValue } from './groups.ts';

export interface FactcheckQuery {
  category_id: string;
  start_date: string;
  end_date: string;
  group_by?: string[];
  interval?: 'day' | 'week' | 'month';
  filter?: FilterNode;
}

/** Every row the v2 fact-check report should return, in order, computed the plain way. */
export function referenceFactcheck(f: ClaimsFixture, q: FactcheckQuery): Record<string, unknown>[] {
  const prompts = byId(f.prompts);
  const clusters = byId(f.claim_clusters);
  const context = promptContext(f);
  const dimsOf = dimensionReader(f, q.interval ?? 'day');
  const themeIds = new Map<string, string>();
  for (const t of (f.themes ?? [])
    .filter((t) => t.category_id === q.category_id)
    .sort((a, b) => cmp(String(a.id), String(b.id))))
    if (!themeIds.has(String(t.name))) themeIds.set(String(t.name), String(t.id));
  const groupBy = q.group_by ?? [];
  const inScope = (r: Row) =>
    inWindow(r, q) &&
    (prompts.get(String(r.prompt_id))!.analysis_types as string[]).includes('accuracy') &&
    (!q.filter || evaluate(q.filter, context(r)));
  const pages = (r: Row) => [
    ...new Set(
      f.citations.filter((c) => c.execution_id === r.execution_id && inWindow(c, q)).map((c) => String(c.url)),
    ),
  ];
  const category = (url: string) =>
    f.citations
      .filter((c) => c.url === url && c.category_id === q.category_id)
      .map((c) => String(c.citation_category))
      .sort(cmp)[0];
  const valuesOf = (r: Row, d: string): DimValue[] => {
    if (d === 'theme') {
      const theme = String(clusters.get(String(r.cluster_id))!.theme);
      return [{ key: theme, name: theme }];
    }
    if (d === 'citation') return pages(r).map((u) => ({ key: u, name: u }));
    return dimsOf(d, r);
  };
  const groups = new Map<string, { keys: DimValue[]; accurate: number; inaccurate: number }>();
  for (const o of f.claim_occurrences.filter((o) => inScope(o) && clusters.has(String(o.cluster_id)))) {
    for (const keys of combinations(groupBy.map((d) => valuesOf(o, d)))) {
      const k = JSON.stringify(keys.map((v) => v.key));
      const g = groups.get(k) ?? { keys, accurate: 0, inaccurate: 0 };
      if (o.accurate) g.accurate++;
      else g.inaccurate++;
      groups.set(k, g);
    }
  }
  const byCitation = groupBy[0] === 'citation';
  const ordered = [...groups.values()].sort((a, b) =>
    byCitation
      ? b.accurate + b.inaccurate - (a.accurate + a.inaccurate) || cmp(a.keys[0]!.key, b.keys[0]!.key)
      : compareDims(groupBy, a.keys, b.keys),
  );
  return ordered.map((g) => {
    const row: Record<string, unknown> = {};
    groupBy.forEach((d, i) => {
      const v = g.keys[i]!;
      if (d === 'theme') row.theme = { id: themeIds.get(v.key!) ?? null, name: v.key };
      else if (d === 'citation') row.citation = { url: v.key, citation_category: category(v.key!) };
      else {
        const [name, value] = dimField(d, v);
        row[name] = value;
      }
    });
    return {
      ...row,
      accuracy: g.accurate / (g.accurate + g.inaccurate),
      accurate: g.accurate,
      inaccurate: g.inaccurate,
    };
  });
}
