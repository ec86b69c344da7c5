import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';
import type { Row } from '../helpers/arrow-fixture.ts';
import type { TabularFixture } from '../fixtures/tabular.ts';

/**
 * An independent reading of the tabular reports over plain rows: flat filters, buckets (through
 * date-fns-tz, not the engine's time code), groups, metrics and the documented row order.
 */

export interface FlatRef {
  field: string;
  operator: string;
  value: unknown;
}

/** For one fact row, the strings each filter field compares; none when the value is missing. */
export type Candidates = Record<string, readonly string[]>;

const negations: Record<string, string> = {
  not_is: 'is',
  not_in: 'in',
  not_contains: 'contains',
  not_contains_case_insensitive: 'contains_case_insensitive',
};

function positive(op: string, candidates: readonly string[], values: readonly string[]): boolean {
  switch (op) {
    case 'is':
    case 'in':
      return candidates.some((c) => values.includes(c));
    case 'contains':
      return candidates.some((c) => values.some((v) => c.includes(v)));
    case 'contains_case_insensitive':
      return candidates.some((c) => values.some((v) => c.toLowerCase().includes(v.toLowerCase())));
    case 'matches':
      return candidates.some((c) => values.some((v) => new RegExp(v).test(c)));
    default:
      throw new Error(op);
  }
}

export function flatMatches(filters: readonly FlatRef[], row: Candidates): boolean {
  return filters.every((f) => {
    const values = (Array.isArray(f.value) ? f.value : [f.value]).map(String);
    const candidates = row[f.field] ?? [];
    const op = negations[f.operator];
    return op ? !positive(op, candidates, values) : positive(f.operator, candidates, values);
  });
}

const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const daysBetween = (a: string, b: string) =>
  Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

/** A bucket: `key` sorts chronologically, `label` is what a row shows. */
export function bucketOf(
  interval: string,
  zone: string,
  instant: Date,
  anchor: string,
  localDay?: string,
): { key: string | number; label: string } {
  const day = localDay ?? formatInTimeZone(instant, zone, 'yyyy-MM-dd');
  const month = Number(day.slice(5, 7));
  switch (interval) {
    case 'hour': {
      const into = Number(formatInTimeZone(instant, zone, 'mm')) * 60 + Number(formatInTimeZone(instant, zone, 'ss'));
      const start = new Date(Math.floor(instant.getTime() / 1000) * 1000 - into * 1000);
      // The label is the wall clock at the bucket's own offset: the offset of the rows, read at the hour's last second.
      const last = new Date(start.getTime() + 3_599_000);
      const offset = formatInTimeZone(last, zone, 'xxx');
      return {
        key: start.getTime(),
        label: `${formatInTimeZone(new Date(last.getTime() - 3_599_000), offset === '+00:00' ? 'UTC' : offset, "yyyy-MM-dd'T'HH:mm:ss")}${offset}`,
      };
    }
    case 'day':
      return { key: day, label: day };
    case 'week': {
      const dow = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
      const d = addDays(day, -dow);
      return { key: d, label: d };
    }
    case 'month':
      return { key: `${day.slice(0, 7)}-01`, label: `${day.slice(0, 7)}-01` };
    case 'quarter': {
      const q = `${day.slice(0, 4)}-${String(Math.floor((month - 1) / 3) * 3 + 1).padStart(2, '0')}-01`;
      return { key: q, label: q };
    }
    case 'year':
      return { key: `${day.slice(0, 4)}-01-01`, label: `${day.slice(0, 4)}-01-01` };
    case 'relative_week': {
      const d = addDays(anchor, 7 * Math.floor(daysBetween(anchor, day) / 7));
      return { key: d, label: d };
    }
    default:
      throw new Error(interval);
  }
}

/** A group's dimension values: the key it groups by, the label it shows, and whether rows sort by key. */
export interface DimValue {
  key: string | number | null;
  label: string | null;
  byKey: boolean;
}

export interface RefRow {
  metrics: (number | null)[];
  dims: DimValue[];
}

/** The documented order: order_by keys (default first metric descending), then each dimension ascending; missing values last. */
export function ordered(
  rows: RefRow[],
  metrics: readonly string[],
  dimensions: readonly string[],
  orderBy: [string, 'asc' | 'desc'][] = [],
): { metrics: (number | null)[]; dimensions: (string | null)[] }[] {
  const keys: [string, 'asc' | 'desc'][] = orderBy.length > 0 ? orderBy : [[metrics[0]!, 'desc']];
  const byMetric = (a: number | null, b: number | null, dir: number) =>
    a === b ? 0 : a === null ? 1 : b === null ? -1 : (a - b) * dir;
  const sorted = [...rows].sort((x, y) => {
    for (const [key, d] of keys) {
      const dir = d === 'asc' ? 1 : -1;
      const j = metrics.indexOf(key);
      const c = j >= 0 ? byMetric(x.metrics[j]!, y.metrics[j]!, dir) : orderDim(x, y, dimensions.indexOf(key), dir);
      if (c !== 0) return c;
    }
    for (let i = 0; i < dimensions.length; i++) {
      const c = orderDim(x, y, i, 1);
      if (c !== 0) return c;
    }
    return 0;
  });
  function orderDim(x: RefRow, y: RefRow, i: number, dir: number): number {
    const a = x.dims[i]!;
    const b = y.dims[i]!;
    const nullsLast = (p: string | number | null, q: string | number | null) =>
      p === q ? 0 : p === null ? 1 : q === null ? -1 : (p < q ? -1 : 1) * dir;
    if (a.byKey) return nullsLast(a.key, b.key);
    return nullsLast(a.label, b.label) || nullsLast(a.key, b.key);
  }
  return sorted.map((r) => ({ metrics: r.metrics, dimensions: r.dims.map((d) => d.label) }));
}

const byId = (rows: Row[] | undefined) => new Map((rows ?? []).map((r) => [String(r.id), r]));

export interface InsightsRefQuery {
  start: number;
  end: number;
  metrics: string[];
  dimensions: string[];
  filters: FlatRef[];
  interval: string;
  anchor: string;
  orderBy?: [string, 'asc' | 'desc'][];
}

const answerLevel = ['date', 'region', 'topic', 'topic_id', 'model', 'tag', 'prompt', 'prompt_id', 'persona'];
const rowFields = ['hostname', 'path', 'url', 'root_domain', 'citation_category', 'mentioned'];

/** Candidates and dimension values of an Insights fact row of category 1. */
function insightsView(f: TabularFixture) {
  const models = byId(f.models);
  const regions = byId(f.regions);
  const personas = byId(f.personas);
  const prompts = byId(f.prompts);
  const topics = byId(f.topics);
  const tags = byId(f.tags);
  const assets = byId(f.assets);
  const themes = byId(f.themes);
  const name = (m: Map<string, Row>, id: unknown, col = 'name') =>
    id == null ? null : String(m.get(String(id))?.[col] ?? '');
  const candidates = (r: Row): Candidates => {
    const p = prompts.get(String(r.prompt_id))!;
    const tagIds = p.tag_ids as string[];
    return {
      region_id: [String(r.region_id)],
      region_name: [name(regions, r.region_id)!],
      model_id: [String(r.model_id)],
      topic_id: [String(p.topic_id)],
      topic_name: [name(topics, p.topic_id)!],
      tag_id: tagIds,
      tag_name: tagIds.map((t) => name(tags, t)!),
      persona_id: r.persona_id == null ? [] : [String(r.persona_id)],
      prompt_id: [String(r.prompt_id)],
      prompt: [String(p.prompt)],
      analysis_type: p.analysis_types as string[],
      asset_id: r.asset_id == null ? [] : [String(r.asset_id)],
      asset_name: r.asset_id == null ? [] : [name(assets, r.asset_id)!],
      theme: r.theme_id == null ? [] : [name(themes, r.theme_id)!],
      hostname: r.hostname == null ? [] : [String(r.hostname)],
      path: r.path == null ? [] : [String(r.path)],
      url: r.url == null ? [] : [String(r.url)],
      root_domain: r.root_domain == null ? [] : [String(r.root_domain)],
      citation_category: r.citation_category == null ? [] : [String(r.citation_category)],
    };
  };
  /** Every value tuple of the requested dimensions for a row (several when grouped by tag). */
  const dimValues = (r: Row, q: InsightsRefQuery): DimValue[][] => {
    const p = prompts.get(String(r.prompt_id))!;
    const one = (key: string | null, label: string | null, byKey = false): DimValue[] => [{ key, label, byKey }];
    const per = q.dimensions.map((d): DimValue[] => {
      switch (d) {
        case 'date': {
          const b = bucketOf(
            q.interval,
            'America/New_York',
            new Date(String(r.executed_at)),
            q.anchor,
            q.interval === 'hour' ? undefined : String(r.day),
          );
          return [{ key: b.key as string, label: b.label, byKey: true }];
        }
        case 'region':
          return one(String(r.region_id), name(regions, r.region_id));
        case 'model':
          return one(String(r.model_id), name(models, r.model_id));
        case 'persona':
          return one(
            r.persona_id == null ? null : String(r.persona_id),
            r.persona_id == null ? '' : name(personas, r.persona_id),
          );
        case 'topic':
          return one(String(p.topic_id), name(topics, p.topic_id));
        case 'topic_id':
          return one(String(p.topic_id), String(p.topic_id));
        case 'prompt':
          return one(String(r.prompt_id), String(p.prompt));
        case 'prompt_id':
          return one(String(r.prompt_id), String(r.prompt_id));
        case 'tag': {
          const t = [...new Set(p.tag_ids as string[])];
          return t.length === 0 ? one(null, '') : t.map((id) => ({ key: id, label: name(tags, id), byKey: false }));
        }
        case 'asset_id':
          return one(String(r.asset_id), String(r.asset_id));
        case 'asset_name':
          return one(String(r.asset_id), name(assets, r.asset_id));
        case 'theme':
          return one(String(r.theme_id), name(themes, r.theme_id));
        default:
          return one(r[d] == null ? null : String(r[d]), r[d] == null ? null : String(r[d]));
      }
    });
    return per.reduce<DimValue[][]>((acc, values) => acc.flatMap((a) => values.map((v) => [...a, v])), [[]]);
  };
  return { prompts, candidates, dimValues };
}

const inWindow = (r: Row, q: { start: number; end: number }, column = 'executed_at') => {
  const t = Date.parse(String(r[column]));
  return t >= q.start && t < q.end;
};

/** v1 citations: count, citation_share (per-model share over the answer group, averaged), first_cited_at. */
export function referenceCitations(
  f: TabularFixture,
  category: string,
  q: InsightsRefQuery,
): ReturnType<typeof ordered> {
  const v = insightsView(f);
  const scopeFilters = q.filters.filter((x) => !rowFields.includes(x.field));
  const rowFilters = q.filters.filter((x) => rowFields.includes(x.field));
  const latest = new Map<string, { at: number; mentioned: boolean }>();
  for (const a of f.page_analyses) {
    const at = Date.parse(String(a.analyzed_at));
    if (a.category_id !== category || at > q.end) continue;
    const cur = latest.get(String(a.url));
    if (!cur || at > cur.at) latest.set(String(a.url), { at, mentioned: Boolean(a.mentioned) });
  }
  const answerIdx = q.dimensions.map((d, i) => (answerLevel.includes(d) ? i : -1)).filter((i) => i >= 0);
  const groups = new Map<string, { dims: DimValue[]; n: Map<string, number>; first: number | null }>();
  const den = new Map<string, Map<string, number>>();
  for (const c of f.citations) {
    if (c.category_id !== category || !inWindow(c, q)) continue;
    const cand = v.candidates(c);
    if (!flatMatches(scopeFilters, cand)) continue;
    const analysis = latest.get(String(c.url));
    const hit = flatMatches(rowFilters, { ...cand, mentioned: analysis ? [String(analysis.mentioned)] : [] });
    const model = String(c.model_id);
    for (const dims of v.dimValues(c, q)) {
      const answerKey = JSON.stringify(answerIdx.map((i) => dims[i]!.key));
      const d = den.get(answerKey) ?? new Map<string, number>();
      d.set(model, (d.get(model) ?? 0) + 1);
      den.set(answerKey, d);
      if (!hit) continue;
      const k = JSON.stringify(dims.map((x) => x.key));
      const g = groups.get(k) ?? { dims, n: new Map<string, number>(), first: null };
      g.n.set(model, (g.n.get(model) ?? 0) + 1);
      const at = Date.parse(String(c.executed_at));
      g.first = g.first === null ? at : Math.min(g.first, at);
      groups.set(k, g);
    }
  }
  const rows: RefRow[] = [...groups.values()].map((g) => {
    const d = den.get(JSON.stringify(answerIdx.map((i) => g.dims[i]!.key)))!;
    const count = [...g.n.values()].reduce((a, b) => a + b, 0);
    let share = 0;
    for (const [m, total] of d) share += (g.n.get(m) ?? 0) / total;
    share /= d.size;
    const values: Record<string, number | null> = {
      count,
      citation_share: share,
      share_of_voice: share,
      first_cited_at: Math.floor(g.first! / 1000),
    };
    return { metrics: q.metrics.map((m) => values[m]!), dims: g.dims };
  });
  return ordered(rows, q.metrics, q.dimensions, q.orderBy);
}

/** v1 sentiment: positive, negative and occurrences over sentiments of sentiment prompts. */
export function referenceSentiment(
  f: TabularFixture,
  category: string,
  q: InsightsRefQuery,
): ReturnType<typeof ordered> {
  const v = insightsView(f);
  const groups = new Map<string, { dims: DimValue[]; positive: number; negative: number }>();
  for (const s of f.sentiments) {
    const p = v.prompts.get(String(s.prompt_id))!;
    if (s.category_id !== category || !inWindow(s, q) || !(p.analysis_types as string[]).includes('sentiment'))
      continue;
    if (!flatMatches(q.filters, v.candidates(s))) continue;
    for (const dims of v.dimValues(s, q)) {
      const k = JSON.stringify(dims.map((x) => x.key));
      const g = groups.get(k) ?? { dims, positive: 0, negative: 0 };
      if (s.sentiment_type === 'positive') g.positive++;
      else g.negative++;
      groups.set(k, g);
    }
  }
  const rows = [...groups.values()].map((g) => {
    const values: Record<string, number> = {
      positive: g.positive,
      negative: g.negative,
      occurrences: g.positive + g.negative,
    };
    return { metrics: q.metrics.map((m) => values[m]!), dims: g.dims };
  });
  return ordered(rows, q.metrics, q.dimensions, q.orderBy);
}

export interface TrafficRefQuery {
  table: 'bot_events' | 'referral_visits';
  daily: boolean;
  zone: string;
  domain: string;
  start: number;
  end: number;
  metrics: string[];
  dimensions: string[];
  filters: FlatRef[];
  interval: string;
  anchor: string;
  viewId?: string;
  metricFilters?: { field: string; value: number }[];
  orderBy?: [string, 'asc' | 'desc'][];
}

/**
 * Traffic: daily views keep the America/New_York days whose start lies in the window and bucket by
 * that day; hourly views keep the visits in the window and bucket in the zone.
 */
export function referenceTraffic(f: TabularFixture, q: TrafficRefQuery): ReturnType<typeof ordered> {
  const rows = q.table === 'bot_events' ? f.bot_events : f.referral_visits;
  const view = q.viewId ? f.domain_views.find((v) => v.id === q.viewId) : undefined;
  const groups = new Map<string, { dims: DimValue[]; visits: number; byType: Record<string, number>; last: number }>();
  for (const r of rows) {
    if (r.domain !== q.domain) continue;
    const at = new Date(String(r.ts));
    const etDay = formatInTimeZone(at, 'America/New_York', 'yyyy-MM-dd');
    const stamp = q.daily ? fromZonedTime(`${etDay}T00:00:00`, 'America/New_York').getTime() : at.getTime();
    if (stamp < q.start || stamp >= q.end) continue;
    if (
      view &&
      ((view.host != null && view.host !== r.host) ||
        (view.path_prefix != null && !String(r.path).startsWith(String(view.path_prefix))))
    )
      continue;
    const cand: Candidates = Object.fromEntries(
      ['path', 'host', 'bot_name', 'bot_provider', 'bot_type', 'referral_source', 'referral_type'].map((c) => [
        c,
        r[c] == null ? [] : [String(r[c])],
      ]),
    );
    if (!flatMatches(q.filters, cand)) continue;
    const dims = q.dimensions.map((d): DimValue => {
      if (d === 'date') {
        const b = bucketOf(
          q.daily && q.interval === 'hour' ? 'day' : q.interval,
          q.daily ? 'America/New_York' : q.zone,
          at,
          q.anchor,
          q.daily ? etDay : undefined,
        );
        return { key: b.key, label: b.label, byKey: true };
      }
      if (d === 'hour') {
        const h = formatInTimeZone(at, q.zone, 'HH');
        return { key: h, label: h, byKey: true };
      }
      return { key: String(r[d]), label: String(r[d]), byKey: false };
    });
    const k = JSON.stringify(dims.map((x) => x.key));
    const g = groups.get(k) ?? { dims, visits: 0, byType: {}, last: 0 };
    g.visits++;
    if (r.bot_type) g.byType[String(r.bot_type)] = (g.byType[String(r.bot_type)] ?? 0) + 1;
    g.last = Math.max(g.last, at.getTime());
    groups.set(k, g);
  }
  const out = [...groups.values()]
    .map((g) => {
      const values: Record<string, number> = {
        count: g.visits,
        visits: g.visits,
        citations: g.byType.ai_assistant ?? 0,
        indexing: g.byType.index ?? 0,
        training: g.byType.ai_training ?? 0,
        last_visit: Math.floor(g.last / 1000),
      };
      return { metrics: q.metrics.map((m) => values[m]!), dims: g.dims };
    })
    .filter((r) => (q.metricFilters ?? []).every((mf) => r.metrics[q.metrics.indexOf(mf.field)]! >= mf.value));
  return ordered(out, q.metrics, q.dimensions, q.orderBy);
}
