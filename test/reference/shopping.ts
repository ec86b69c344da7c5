import type { FilterNode } from '../../src/query/filter-node.ts';
import type { Row } from '../helpers/arrow-fixture.ts';
import type { ShoppingFixture } from '../fixtures/shopping.ts';
import { byId, bucketOf, cmp, inWindow, promptContext } from './context.ts';
import { evaluate, type FieldValues } from './filter.ts';

export interface ShoppingQuery {
  category_id: string;
  start_date: string;
  end_date: string;
  group_by?: ('date' | 'topic' | 'prompt')[];
  interval?: 'day' | 'week' | 'month';
  metrics?: string[];
  include_merchants?: boolean;
  target_product?: string;
  competitor_limit?: number;
  filter?: FilterNode;
}

const allMetrics = [
  'visibility_score',
  'average_position',
  'visibility_rank',
  'position1_percentage',
  'position2_percentage',
  'position3_percentage',
  'position_above3_percentage',
  'product_rating',
  'product_num_reviews',
];

interface Counts {
  shown: number;
  positionSum: number;
  at: [number, number, number];
  executions: number;
}

interface Scored {
  product: Row;
  counts: Counts;
  visibility_score: number;
  average_position: number;
  rank: number;
}

/** Every row the shopping products report should return, in order, computed the plain way. */
export function referenceShopping(f: ShoppingFixture, q: ShoppingQuery): Record<string, unknown>[] {
  const context = promptContext(f);
  const prompts = byId(f.prompts);
  const topics = byId(f.topics);
  const products = byId(f.products.filter((p) => p.category_id === q.category_id));
  const assets = (f.assets ?? []).filter((a) => a.category_id === q.category_id);
  const merchants = (id: string) => f.product_merchants.filter((m) => m.product_id === id);
  const values = (r: Row, p: Row): FieldValues => {
    const { model, ...prompt } = context(r);
    void model;
    return {
      ...prompt,
      brand: [{ id: String(assets.find((a) => a.name === p.brand)?.id ?? '\u0000no asset'), name: String(p.brand) }],
      merchant: merchants(String(p.id)).map((m) => ({ id: String(m.name), name: String(m.name) })),
    };
  };
  const passes = (r: Row, p: Row) => !q.filter || evaluate(q.filter, values(r, p));
  const dims = q.group_by ?? [];
  const interval = q.interval ?? 'day';
  const keyOf = (r: Row): string[] =>
    dims.map((d) =>
      d === 'date'
        ? bucketOf(String(r.day), interval)
        : d === 'topic'
          ? String(prompts.get(String(r.prompt_id))!.topic_id)
          : String(r.prompt_id),
    );

  const results = f.shopping_results.filter((r) => inWindow(r, q) && products.has(String(r.product_id)));
  const answers = new Map<string, Row>();
  for (const r of results) answers.set(String(r.execution_id), r);
  const hits = results.filter((r) => passes(r, products.get(String(r.product_id))!));
  const shownIds = [...new Set(hits.map((r) => String(r.product_id)))];

  const buckets = new Map<string, Map<string, Counts>>();
  const counts = (bucket: string, productId: string) => {
    if (!buckets.has(bucket)) buckets.set(bucket, new Map());
    const m = buckets.get(bucket)!;
    if (!m.has(productId)) m.set(productId, { shown: 0, positionSum: 0, at: [0, 0, 0], executions: 0 });
    return m.get(productId)!;
  };
  for (const r of hits) {
    const c = counts(JSON.stringify(keyOf(r)), String(r.product_id));
    c.shown++;
    c.positionSum += Number(r.position);
    const pos = Number(r.position);
    if (pos <= 3) c.at[pos - 1]!++;
  }
  for (const a of answers.values()) {
    const bucket = JSON.stringify(keyOf(a));
    for (const id of shownIds) {
      const m = buckets.get(bucket);
      if (m?.has(id) && passes(a, products.get(id)!)) m.get(id)!.executions++;
    }
  }
  const score = (list: [string, Counts][]): Scored[] => {
    const scored = list.map(([id, c]) => ({
      product: products.get(id)!,
      counts: c,
      visibility_score: c.shown / c.executions,
      average_position: c.positionSum / c.shown,
      rank: 0,
    }));
    scored.sort(
      (x, y) =>
        y.visibility_score - x.visibility_score ||
        x.average_position - y.average_position ||
        cmp(String(x.product.name), String(y.product.name)) ||
        cmp(String(x.product.id), String(y.product.id)),
    );
    scored.forEach((s, i) => (s.rank = i + 1));
    return scored;
  };
  const windowCounts = new Map<string, Counts>();
  for (const m of buckets.values()) {
    for (const [id, c] of m) {
      const w = windowCounts.get(id) ?? { shown: 0, positionSum: 0, at: [0, 0, 0], executions: 0 };
      windowCounts.set(id, {
        shown: w.shown + c.shown,
        positionSum: w.positionSum + c.positionSum,
        at: [w.at[0] + c.at[0], w.at[1] + c.at[1], w.at[2] + c.at[2]],
        executions: 0,
      });
    }
  }
  for (const a of answers.values()) {
    for (const [id, w] of windowCounts) if (passes(a, products.get(id)!)) w.executions++;
  }
  let units = score([...windowCounts]);
  if (q.target_product !== undefined) {
    const targets = [...products.values()].filter((p) => p.id === q.target_product || p.name === q.target_product);
    const brands = new Set(targets.map((t) => t.brand));
    const targetIds = new Set(targets.map((t) => t.id));
    const competitors = units.filter((u) => !brands.has(u.product.brand)).slice(0, q.competitor_limit ?? 5);
    units = targets.length === 0 ? [] : [...units.filter((u) => targetIds.has(u.product.id)), ...competitors];
  }

  const metrics = q.metrics ?? (q.include_merchants ? allMetrics.filter((m) => !m.startsWith('position')) : allMetrics);
  const row = (s: Scored, key: string[] | null): Record<string, unknown> => {
    const out: Record<string, unknown> = { product: { name: s.product.name, brand: s.product.brand } };
    dims.forEach((d, j) => {
      const id = key![j]!;
      out[d] = d === 'date' ? id : { id, name: d === 'topic' ? topics.get(id)!.name : prompts.get(id)!.prompt };
    });
    const c = s.counts;
    const value: Record<string, unknown> = {
      visibility_score: s.visibility_score,
      average_position: s.average_position,
      visibility_rank: s.rank,
      position1_percentage: c.at[0] / c.shown,
      position2_percentage: c.at[1] / c.shown,
      position3_percentage: c.at[2] / c.shown,
      position_above3_percentage: (c.shown - c.at[0] - c.at[1] - c.at[2]) / c.shown,
      product_rating: s.product.rating ?? null,
      product_num_reviews: s.product.num_reviews ?? null,
    };
    for (const m of metrics) out[m] = value[m];
    if (q.include_merchants) {
      out.product_url = s.product.url;
      out.product_image_urls = s.product.image_urls;
      out.merchants = merchants(String(s.product.id))
        .map((m) => ({ name: m.name, price: m.price }))
        .sort((a, b) => cmp(String(a.name), String(b.name)) || cmp(String(a.price), String(b.price)));
    }
    return out;
  };
  if (dims.length === 0) return units.map((u) => row(u, null));

  const bucketRows = new Map<string, { key: string[]; scored: Scored }[]>();
  for (const [bucket, m] of buckets) {
    for (const s of score([...m])) {
      const id = String(s.product.id);
      if (!bucketRows.has(id)) bucketRows.set(id, []);
      bucketRows.get(id)!.push({ key: JSON.parse(bucket) as string[], scored: s });
    }
  }
  const order = (x: string[], y: string[]) => {
    for (let j = 0; j < dims.length; j++) {
      const d = dims[j]!;
      const a = d === 'date' ? x[j] : d === 'topic' ? topics.get(x[j]!)!.name : prompts.get(x[j]!)!.prompt;
      const b = d === 'date' ? y[j] : d === 'topic' ? topics.get(y[j]!)!.name : prompts.get(y[j]!)!.prompt;
      const c = cmp(a as string, b as string) || cmp(x[j], y[j]);
      if (c !== 0) return c;
    }
    return 0;
  };
  return units.flatMap((u) =>
    (bucketRows.get(String(u.product.id)) ?? []).sort((a, b) => order(a.key, b.key)).map((b) => row(b.scored, b.key)),
  );
}
