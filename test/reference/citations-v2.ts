import type { FilterNode } from '../../src/query/filter-node.ts';
import { negationOf } from '../../src/query/filter-node.ts';
import type { Row } from '../helpers/arrow-fixture.ts';
import type { MoreV2Fixture } from '../fixtures/more-v2.ts';
import { byId, cmp, inWindow, promptContext } from './context.ts';
import { evaluate } from './filter.ts';
import {
  analysisTypeLeaf,
  answerPart,
  clauses,
  compareDims,
  dimensionReader,
  dimField,
  evaluateTree,
  isoSecond,
  sortedSum,
  textLeaf,
  type DimValue,
} from './groups.ts';

export interface CitationsQuery {
  category_id: string;
  start_date: string;
  end_date: string;
  group_by?: string[];
  metrics?: string[];
  interval?: 'day' | 'week' | 'month';
  scope?: 'owned' | 'all';
  filter?: FilterNode;
}

type Leaf = Extract<FilterNode, { kind: 'leaf' }>;
const rowFields = ['domain', 'page', 'citation_category', 'citation_tag'];

function domainLeaf(l: Leaf, host: string): boolean {
  const values = (Array.isArray(l.value) ? l.value : [l.value]).map((v) => String(v).toLowerCase());
  const under = (h: string) => values.some((v) => h === v || h.endsWith(`.${v}`));
  const negated = negationOf[l.op as keyof typeof negationOf];
  const op = negated ?? l.op;
  const hit = op === 'is' || op === 'in' ? under(host.toLowerCase()) : textLeaf({ ...l, op: op as Leaf['op'] }, host);
  return negated ? !hit : hit;
}

/** Every row the v2 citations report should return, in order, computed the plain way. */
export function referenceCitations(f: MoreV2Fixture, q: CitationsQuery): Record<string, unknown>[] {
  const prompts = byId(f.prompts);
  const context = promptContext(f);
  const dimsOf = dimensionReader(f, q.interval ?? 'day');
  const tagDomains = (values: string[]) => {
    const tags = (f.citation_tags ?? []).filter(
      (t) =>
        t.organization_id === f.categories!.find((c) => c.id === q.category_id)!.organization_id &&
        (values.includes(String(t.id)) || values.includes(String(t.name))),
    );
    return new Set(
      f.citation_tag_domains.filter((d) => tags.some((t) => t.id === d.tag_id)).map((d) => String(d.root_domain)),
    );
  };
  const leaf =
    (r: Row) =>
    (l: Leaf): boolean => {
      const p = prompts.get(String(r.prompt_id))!;
      switch (l.field) {
        case 'analysis_type':
          return analysisTypeLeaf(l, p);
        case 'domain':
          return domainLeaf(l, String(r.hostname));
        case 'page':
          return textLeaf(l, String(r.url));
        case 'citation_category':
          return textLeaf(l, String(r.citation_category));
        case 'citation_tag':
          return tagDomains((Array.isArray(l.value) ? l.value : [l.value]).map(String)).has(String(r.root_domain));
        default:
          return evaluate(l, context(r));
      }
    };
  const typed = clauses(q.filter).some((c) => c.kind === 'leaf' && c.field === 'analysis_type');
  const answerClauses = answerPart(q.filter, rowFields);
  const scoped = f.citations.filter(
    (r) =>
      inWindow(r, q) &&
      (typed ||
        analysisTypeLeaf(
          { kind: 'leaf', field: 'analysis_type', op: 'is', value: 'visibility' },
          prompts.get(String(r.prompt_id))!,
        )) &&
      answerClauses.every((c) => evaluateTree(c, leaf(r))),
  );
  const selected = scoped.filter((r) => !q.filter || evaluateTree(q.filter, leaf(r)));
  const groupBy = q.group_by ?? [];
  const entity = groupBy.includes('page') ? 'page' : 'domain';
  const dims = groupBy.filter((d) => d !== 'page');
  const partOf = (r: Row): DimValue[] => dims.map((d) => dimsOf(d, r)[0]!);
  const pkey = (vs: DimValue[]) => JSON.stringify(vs.map((v) => v.key));

  const totals = new Map<string, Map<string, number>>();
  for (const r of scoped) {
    const k = pkey(partOf(r));
    const m = totals.get(k) ?? new Map<string, number>();
    m.set(String(r.model_id), (m.get(String(r.model_id)) ?? 0) + 1);
    totals.set(k, m);
  }
  const cells = new Map<string, { part: DimValue[]; entity: string; rows: Row[] }>();
  for (const r of selected) {
    const part = partOf(r);
    const e = String(entity === 'page' ? r.url : r.root_domain);
    const k = JSON.stringify([pkey(part), e]);
    if (!cells.has(k)) cells.set(k, { part, entity: e, rows: [] });
    cells.get(k)!.rows.push(r);
  }
  const scored = [...cells.values()].map((c) => {
    const models = totals.get(pkey(c.part))!;
    const perModel = new Map<string, number>();
    for (const r of c.rows) perModel.set(String(r.model_id), (perModel.get(String(r.model_id)) ?? 0) + 1);
    const share = sortedSum([...perModel].map(([m, n]) => n / models.get(m)!)) / models.size;
    const first = c.rows.map((r) => new Date(String(r.executed_at)).getTime()).sort((a, b) => a - b)[0]!;
    return {
      ...c,
      count: c.rows.length,
      share,
      first,
      owned: c.rows.some((r) => r.citation_category === 'owned'),
      rank: 0,
    };
  });
  const byPart = new Map<string, typeof scored>();
  for (const s of scored) byPart.set(pkey(s.part), [...(byPart.get(pkey(s.part)) ?? []), s]);
  for (const list of byPart.values()) {
    list.sort((a, b) => b.count - a.count || b.share - a.share || cmp(a.entity, b.entity));
    list.forEach((s, i) => (s.rank = i + 1));
  }
  const metrics = q.metrics ?? ['count', 'citation_share', 'rank'];
  return scored
    .filter((s) => q.scope !== 'owned' || s.owned)
    .sort((a, b) => compareDims(dims, a.part, b.part) || a.rank - b.rank)
    .map((s) => {
      const row: Record<string, unknown> = Object.fromEntries(dims.map((d, i) => dimField(d, s.part[i]!)));
      row[entity] = s.entity;
      const values: Record<string, unknown> = {
        rank: s.rank,
        count: s.count,
        citation_share: s.share,
        first_cited_at: isoSecond(new Date(s.first).toISOString()),
      };
      for (const m of ['rank', 'count', 'citation_share', 'first_cited_at'])
        if (metrics.includes(m)) row[m] = values[m];
      return row;
    });
}
