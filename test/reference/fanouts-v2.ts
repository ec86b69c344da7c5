import type { FilterNode } from '../../src/query/filter-node.ts';
import type { Row } from '../helpers/arrow-fixture.ts';
import type { MoreV2Fixture } from '../fixtures/more-v2.ts';
import { byId, cmp, inWindow, promptContext } from './context.ts';
import { evaluate } from './filter.ts';
import { analysisTypeLeaf, clauses, compareDims, dimensionReader, evaluateTree, type DimValue } from './groups.ts';

export interface FanoutsQuery {
  category_id: string;
  start_date: string;
  end_date: string;
  group_by?: string[];
  metrics?: string[];
  interval?: 'day' | 'week' | 'month';
  filter?: FilterNode;
}

/** Every row the v2 query fan-outs report should return, in order, computed the plain way. */
export function referenceFanouts(f: MoreV2Fixture, q: FanoutsQuery): Record<string, unknown>[] {
  const prompts = byId(f.prompts);
  const context = promptContext(f);
  const dimsOf = dimensionReader(f, q.interval ?? 'day');
  const groupBy = q.group_by ?? ['prompt'];
  const typed = clauses(q.filter).some((c) => c.kind === 'leaf' && c.field === 'analysis_type');
  const inScope = (r: Row) => {
    const p = prompts.get(String(r.prompt_id))!;
    const leaf = (l: Extract<FilterNode, { kind: 'leaf' }>) =>
      l.field === 'analysis_type' ? analysisTypeLeaf(l, p) : evaluate(l, context(r));
    return (
      inWindow(r, q) &&
      (typed || (p.analysis_types as string[]).includes('visibility')) &&
      (!q.filter || evaluateTree(q.filter, leaf))
    );
  };
  const keysOf = (r: Row, dims: string[]): DimValue[] =>
    dims.map((d) => (d === 'query' ? { key: String(r.query), name: String(r.query) } : dimsOf(d, r)[0]!));
  const runDims = groupBy.filter((d) => d !== 'query');
  const k = (vs: DimValue[]) => JSON.stringify(vs.map((v) => v.key));

  const fanouts = f.fanouts.filter(inScope);
  const searched = new Map<string, number>();
  for (const e of f.executions.filter((e) => inScope(e) && e.search_triggered))
    searched.set(k(keysOf(e, runDims)), (searched.get(k(keysOf(e, runDims))) ?? 0) + 1);
  const groupFanouts = new Map<string, number>();
  const cells = new Map<string, { keys: DimValue[]; n: number; queries: Set<string> }>();
  for (const r of fanouts) {
    groupFanouts.set(k(keysOf(r, runDims)), (groupFanouts.get(k(keysOf(r, runDims))) ?? 0) + 1);
    const keys = keysOf(r, groupBy);
    const c = cells.get(k(keys)) ?? { keys, n: 0, queries: new Set<string>() };
    c.n++;
    c.queries.add(String(r.query));
    cells.set(k(keys), c);
  }
  const dateAt = groupBy.indexOf('date');
  const ordered = [...cells.values()].sort(
    (a, b) =>
      (dateAt >= 0 ? cmp(a.keys[dateAt]!.key, b.keys[dateAt]!.key) : 0) ||
      b.n - a.n ||
      compareDims(groupBy, a.keys, b.keys),
  );
  const metrics =
    q.metrics ??
    (groupBy.includes('query')
      ? ['total_fanouts', 'fanouts_per_execution']
      : ['total_fanouts', 'fanouts_per_execution', 'query_variations']);
  let bucket: string | null | undefined;
  let rank = 0;
  return ordered.map((c) => {
    const b = dateAt >= 0 ? c.keys[dateAt]!.key : '';
    rank = b === bucket ? rank + 1 : 1;
    bucket = b;
    const row: Record<string, unknown> = {};
    groupBy.forEach((d, i) => {
      const v = c.keys[i]!;
      if (d === 'date') row.date = v.key;
      else if (d === 'query') row.query = v.key;
      else if (d === 'prompt') Object.assign(row, { prompt: v.name, prompt_id: v.key });
      else row[d] = { id: v.key, name: v.name };
    });
    row.rank = rank;
    const runKey = k(runDims.map((d) => c.keys[groupBy.indexOf(d)]!));
    const executions = searched.get(runKey) ?? 0;
    const values: Record<string, unknown> = {
      total_fanouts: c.n,
      fanouts_per_execution: executions === 0 ? null : c.n / executions,
      query_variations: c.queries.size,
      share: c.n / groupFanouts.get(runKey)!,
    };
    for (const m of ['total_fanouts', 'fanouts_per_execution', 'query_variations', 'share'])
      if (metrics.includes(m)) row[m] = values[m];
    return row;
  });
}
