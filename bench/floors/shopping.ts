import type { IterationParams } from '../lib/case.ts';
import { daySql } from './days.ts';
import { compareText } from './dims.ts';
import { num, str, v2Page } from './json.ts';
import { byKeys, dateKeys, groupKey, refKeys, resolveKeys, type Key, type KeyDef } from './keys.ts';
import { page, stream, type FloorEnv, type FloorRollup, type ReportFloors } from './types.ts';
import { windowParams } from './window.ts';

/**
 * v2 shopping products. Shopping answers: executions with a shopping result. Per bucket, a product's
 * visibility is the shopping answers showing it over the bucket's shopping answers; its position figures
 * come from its result rows; visibility_rank orders the bucket's products by visibility descending, then
 * average position, then name and id. Products are paged by their window rank, each followed by its
 * buckets in order.
 */

const keys = `f.category_id, ${daySql('f.day')} AS d, f.model_id::floor_model AS model, f.region_id::floor_region AS region, f.prompt_id::floor_prompt AS prompt, p.topic_id::floor_topic AS topic`;
const prompts = 'JOIN prompts p ON p.id = f.prompt_id';

const rollups: FloorRollup[] = [
  {
    name: 'floor_shop_answers',
    grain: 'category × day × model × region × prompt (× its topic when built)',
    measures: 'shopping answers',
    source: 'shopping_results (distinct executions)',
    sql: `SELECT ${keys}, count(DISTINCT f.execution_id)::INTEGER AS n FROM shopping_results f ${prompts} GROUP BY ALL ORDER BY ALL`,
  },
  {
    name: 'floor_shop_results',
    grain: 'category × day × model × region × prompt (× its topic when built) × product',
    measures: 'results, position sum, results at slots 1, 2 and 3',
    source: 'shopping_results',
    sql: `SELECT ${keys}, f.product_id::floor_product AS product, count(*)::INTEGER AS n, sum(f.position)::DOUBLE AS pos,
  (count(*) FILTER (f.position = 1))::INTEGER AS p1, (count(*) FILTER (f.position = 2))::INTEGER AS p2, (count(*) FILTER (f.position = 3))::INTEGER AS p3
FROM shopping_results f ${prompts} GROUP BY ALL ORDER BY ALL`,
  },
];

interface Product {
  readonly name: string;
  readonly id: string;
  readonly json: string;
  readonly tail: string;
}

const products = (env: FloorEnv) =>
  env.dims.memo('products', async () => {
    const [code, id, name, brand, rating, reviews] = await env.db.columns(
      'SELECT enum_code(id::floor_product), id, name, brand, rating, num_reviews FROM products',
    );
    const out = new Map<number, Product>();
    code!.forEach((c, i) =>
      out.set(c as number, {
        id: id![i] as string,
        name: name![i] as string,
        json: `"product":{"name":${str(name![i] as string)},"brand":${str(brand![i] as string)}}`,
        tail: `"product_rating":${num(rating![i] as number | null)},"product_num_reviews":${num(reviews![i] as number | null)}`,
      }),
    );
    return out;
  });

interface Cell {
  readonly product: number;
  n: number;
  pos: number;
  p1: number;
  p2: number;
  p3: number;
  rank: number;
}

interface Bucket {
  readonly vals: (number | null)[];
  answers: number;
  readonly cells: Cell[];
}

const window = 'category_id = $1 AND d BETWEEN $2 AND $3';
const pageSize = 10;

/** Orders a bucket's cells: visibility descending, average position ascending, name, id; and numbers them. */
function rank(cells: Cell[], answers: number, catalog: Map<number, Product>): Cell[] {
  cells.sort(
    (a, b) =>
      b.n / answers - a.n / answers ||
      a.pos / a.n - b.pos / b.n ||
      compareText(catalog.get(a.product)!.name, catalog.get(b.product)!.name) ||
      compareText(catalog.get(a.product)!.id, catalog.get(b.product)!.id),
  );
  cells.forEach((c, i) => (c.rank = i + 1));
  return cells;
}

const cellJson = (prod: Product, prefix: string, c: Cell, answers: number) =>
  `{${prod.json},${prefix}"visibility_score":${num(c.n / answers)},"average_position":${num(c.pos / c.n)},"visibility_rank":${c.rank},"position1_percentage":${num(c.p1 / c.n)},"position2_percentage":${num(c.p2 / c.n)},"position3_percentage":${num(c.p3 / c.n)},"position_above3_percentage":${num((c.n - c.p1 - c.p2 - c.p3) / c.n)},${prod.tail}}`;

interface Spec {
  readonly keys: readonly KeyDef[];
  readonly where?: (env: FloorEnv) => string;
  readonly limit?: number;
}

/** The window's products in rank order, and the buckets with each product's cells (ranked within the bucket). */
async function shopping(env: FloorEnv, p: IterationParams, s: Spec) {
  const ks = await resolveKeys(env, p, s.keys);
  const where = s.where?.(env) ?? '';
  const k = ks.length;
  const sel = s.keys.map((x) => x.sql);
  const a = await env.db.columns(
    `SELECT ${[...sel, 'enum_code(model)', 'sum(n)::INTEGER'].join(', ')} FROM floor_shop_answers WHERE ${window}${where} GROUP BY ALL`,
    windowParams(p),
  );
  const r = await env.db.columns(
    `SELECT ${[...sel, 'enum_code(product)', 'sum(n)::INTEGER', 'sum(pos)', 'sum(p1)::INTEGER', 'sum(p2)::INTEGER', 'sum(p3)::INTEGER'].join(', ')} FROM floor_shop_results WHERE ${window}${where} GROUP BY ALL`,
    windowParams(p),
  );
  const buckets = new Map<string, Bucket>();
  const bucket = (vals: (number | null)[]) => {
    const key = groupKey(vals);
    let b = buckets.get(key);
    if (!b) buckets.set(key, (b = { vals, answers: 0, cells: [] }));
    return b;
  };
  let answers = 0;
  for (let i = 0; i < a[k]!.length; i++) {
    bucket(ks.map((_, j) => a[j]![i] as number)).answers += a[k + 1]![i] as number;
    answers += a[k + 1]![i] as number;
  }
  const whole = new Map<number, Cell>();
  for (let i = 0; i < r[k]!.length; i++) {
    const cell = {
      product: r[k]![i] as number,
      n: r[k + 1]![i] as number,
      pos: r[k + 2]![i] as number,
      p1: r[k + 3]![i] as number,
      p2: r[k + 4]![i] as number,
      p3: r[k + 5]![i] as number,
      rank: 0,
    };
    bucket(ks.map((_, j) => r[j]![i] as number)).cells.push(cell);
    const w = whole.get(cell.product);
    if (w) {
      w.n += cell.n;
      w.pos += cell.pos;
      w.p1 += cell.p1;
      w.p2 += cell.p2;
      w.p3 += cell.p3;
    } else whole.set(cell.product, { ...cell });
  }
  const catalog = await products(env);
  const ranked = rank([...whole.values()], answers, catalog);
  const models = [...new Set(a[k] as number[])].map((m) => env.dims.models[m]!.name).sort();
  return { ks, buckets, ranked, answers, models, catalog };
}

/** Each product's cells: one per bucket it shows in, buckets in order, ranked within the bucket (written as JSON when read). */
function productCells(ks: readonly Key[], buckets: Map<string, Bucket>, catalog: Map<number, Product>) {
  const ordered = [...buckets.values()].sort(byKeys(ks));
  const byProduct = new Map<number, { prefix: string; cell: Cell; answers: number }[]>();
  for (const b of ordered) {
    const prefix = ks.map((key, i) => `${key.part(b.vals[i]!)},`).join('');
    for (const cell of rank(b.cells, b.answers, catalog)) {
      const list = byProduct.get(cell.product) ?? [];
      list.push({ prefix, cell, answers: b.answers });
      byProduct.set(cell.product, list);
    }
  }
  return (product: number) =>
    (byProduct.get(product) ?? []).map((x) => cellJson(catalog.get(product)!, x.prefix, x.cell, x.answers));
}

function pageFloor(s: Spec) {
  const limit = s.limit ?? pageSize;
  return page(async (env, p) => {
    const { ks, buckets, ranked, answers, models, catalog } = await shopping(env, p, s);
    const onPage = ranked.slice(0, limit);
    const rows =
      ks.length === 0
        ? onPage.map((c) => cellJson(catalog.get(c.product)!, '', c, answers))
        : (() => {
            const rowsOf = productCells(ks, buckets, catalog);
            return onPage.flatMap((c) => rowsOf(c.product));
          })();
    return v2Page(ranked.length, models, rows);
  });
}

/** Every product in window-rank order with all its buckets; the order is by product, so the stream reads its buckets at once. */
function streamFloor(s: Spec) {
  return stream(async function* (env, p) {
    const { ks, buckets, ranked, catalog } = await shopping(env, p, s);
    const rowsOf = productCells(ks, buckets, catalog);
    for (const c of ranked) yield rowsOf(c.product);
  });
}

const unitedStates = (env: FloorEnv) =>
  ` AND region = '${env.dims.regions[env.dims.regionCode.get('United States')!]!.id}'`;

export const shoppingFloors: ReportFloors = {
  report: 'shopping',
  rollups,
  floors: () => ({
    ...Object.fromEntries([1, 7, 30, 90, 365].map((d) => [`window-${d}`, pageFloor({ keys: [] })])),
    'date-30': pageFloor({ keys: [dateKeys.day] }),
    'week-365': pageFloor({ keys: [dateKeys.week], limit: 50 }),
    'topic-region-90': pageFloor({ keys: [refKeys.topic], where: unitedStates }),
    'stream-date-prompt-365': streamFloor({ keys: [dateKeys.day, refKeys.prompt] }),
  }),
};
