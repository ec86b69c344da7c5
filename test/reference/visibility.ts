import type { FilterNode } from '../../src/query/filter-node.ts';
import type { Row } from '../helpers/arrow-fixture.ts';
import type { InsightsFixture } from '../fixtures/insights.ts';
import { evaluate, type FieldValues } from './filter.ts';

export interface VisibilityQuery {
  category_id: string;
  start_date: string;
  end_date: string;
  group_by?: ('date' | 'model' | 'topic' | 'region' | 'prompt' | 'persona')[];
  interval?: 'day' | 'week' | 'month';
  metrics?: ('visibility_score' | 'share_of_voice' | 'average_position')[];
  scope?: 'owned' | 'all';
  assets?: { op: 'is' | 'in' | 'not_in'; value: string | string[] } | string | string[];
  sort?: { field: string; dir?: 'asc' | 'desc' };
  filter?: FilterNode;
}

const byId = (rows: Row[] | undefined) => new Map((rows ?? []).map((r) => [String(r.id), r]));

function bucket(day: string, interval: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  if (interval === 'month') return `${day.slice(0, 7)}-01`;
  if (interval === 'week') {
    const back = (d.getUTCDay() + 6) % 7;
    return new Date(d.getTime() - back * 86_400_000).toISOString().slice(0, 10);
  }
  return day;
}

/** Every row the v2 visibility report should return, in order, computed the plain way. */
export function referenceVisibility(f: InsightsFixture, q: VisibilityQuery): Record<string, unknown>[] {
  const models = byId(f.models);
  const regions = byId(f.regions);
  const personas = byId(f.personas);
  const prompts = byId(f.prompts);
  const topics = byId(f.topics);
  const tags = byId(f.tags);
  const named = (m: Map<string, Row>, id: unknown, nameKey = 'name') =>
    id == null ? [] : [{ id: String(id), name: String(m.get(String(id))?.[nameKey] ?? '') }];
  const values = (r: Row): FieldValues => {
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
  const dims = q.group_by ?? [];
  const interval = q.interval ?? 'day';
  const keyOf = (r: Row) =>
    dims.map((d) => {
      if (d === 'date') return bucket(String(r.day), interval);
      if (d === 'topic') return String(prompts.get(String(r.prompt_id))!.topic_id);
      const v = r[`${d}_id`];
      return v == null ? null : String(v);
    });
  const inScope = (r: Row) => {
    const p = prompts.get(String(r.prompt_id))!;
    return (
      r.category_id === q.category_id &&
      String(r.day) >= q.start_date &&
      String(r.day) <= q.end_date &&
      (p.analysis_types as string[]).includes('visibility') &&
      (!q.filter || evaluate(q.filter, values(r)))
    );
  };
  const groups = new Map<string, { key: (string | null)[]; executions: number }>();
  for (const e of f.executions.filter(inScope)) {
    const key = keyOf(e);
    const k = JSON.stringify(key);
    groups.set(k, { key, executions: (groups.get(k)?.executions ?? 0) + 1 });
  }
  const mentions = new Map<string, { n: number; pos: number }>();
  const totals = new Map<string, number>();
  for (const m of f.mentions.filter(inScope)) {
    const k = JSON.stringify(keyOf(m));
    const mk = `${k}|${m.asset_id}`;
    const cur = mentions.get(mk) ?? { n: 0, pos: 0 };
    mentions.set(mk, { n: cur.n + 1, pos: cur.pos + Number(m.position) });
    totals.set(k, (totals.get(k) ?? 0) + 1);
  }
  const assets = (f.assets ?? []).filter((a) => a.category_id === q.category_id);
  const metrics = q.metrics ?? ['visibility_score', 'share_of_voice', 'average_position'];
  const sortField = q.sort?.field ?? (metrics.includes('visibility_score') ? 'visibility_score' : metrics[0]!);
  const best = sortField === 'average_position' ? 1 : -1;
  const dir = q.sort?.dir ? (q.sort.dir === 'asc' ? 1 : -1) : best;
  const selector =
    typeof q.assets === 'string'
      ? { op: 'is', value: [q.assets] }
      : Array.isArray(q.assets)
        ? { op: 'in', value: q.assets }
        : q.assets
          ? { op: q.assets.op, value: ([] as string[]).concat(q.assets.value) }
          : null;
  const dimName = (d: string, id: string | null) => {
    if (id === null) return null;
    const table = { model: models, region: regions, persona: personas, prompt: prompts, topic: topics }[d]!;
    return String(table.get(id)?.[d === 'prompt' ? 'prompt' : 'name'] ?? '');
  };
  const out: { group: (string | null)[]; rank: number; row: Record<string, unknown> }[] = [];
  for (const [k, g] of groups) {
    const scored = assets.map((a) => {
      const m = mentions.get(`${k}|${a.id}`);
      const total = totals.get(k) ?? 0;
      const n = m?.n ?? 0;
      return {
        a,
        visibility_score: n / g.executions,
        share_of_voice: total === 0 ? 0 : n / total,
        average_position: n === 0 ? null : m!.pos / n,
      };
    });
    const metric = (s: (typeof scored)[number]) => s[sortField as 'visibility_score'] as number | null;
    scored.sort((x, y) => {
      const a = metric(x);
      const b = metric(y);
      if (a !== b) {
        if (a === null) return 1;
        if (b === null) return -1;
        return best * (a - b);
      }
      return String(x.a.name) < String(y.a.name)
        ? -1
        : String(x.a.name) > String(y.a.name)
          ? 1
          : String(x.a.id) < String(y.a.id)
            ? -1
            : 1;
    });
    scored.forEach((s, i) => {
      if (q.scope !== 'all' && !s.a.is_owned) return;
      if (selector) {
        const hit = selector.value.includes(String(s.a.name)) || selector.value.includes(String(s.a.id));
        if (selector.op === 'not_in' ? hit : !hit) return;
      }
      const row: Record<string, unknown> = {};
      dims.forEach((d, j) => {
        const id = g.key[j]!;
        row[d] = d === 'date' ? id : id === null ? null : { id, name: dimName(d, id) };
      });
      row.asset = { name: s.a.name, owned: s.a.is_owned };
      row.rank = i + 1;
      for (const m of metrics) row[m] = s[m as 'visibility_score'];
      out.push({ group: g.key, rank: i + 1, row });
    });
  }
  const cmpKey = (x: (string | null)[], y: (string | null)[]) => {
    for (let j = 0; j < dims.length; j++) {
      const d = dims[j]!;
      const a = d === 'date' ? x[j] : dimName(d, x[j]!);
      const b = d === 'date' ? y[j] : dimName(d, y[j]!);
      if (a !== b) {
        if (a === null) return 1;
        if (b === null) return -1;
        return a! < b! ? -1 : 1;
      }
      if (x[j] !== y[j]) {
        if (x[j] === null) return 1;
        if (y[j] === null) return -1;
        return x[j]! < y[j]! ? -1 : 1;
      }
    }
    return 0;
  };
  out.sort((x, y) => cmpKey(x.group, y.group) || (dir === best ? x.rank - y.rank : y.rank - x.rank));
  return out.map((o) => o.row);
}
