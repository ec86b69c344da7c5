import type { IterationParams } from '../lib/case.ts';
import { addDays } from '../lib/dataset.ts';
import { dayLabel, daySql, dayNumber } from './days.ts';
import { compareText } from './dims.ts';
import { num, str, tabularPage } from './json.ts';
import { page, stream, type FloorEnv, type FloorRollup, type ReportFloors } from './types.ts';

/**
 * v1 citations. count: the row's citations after citation-level filters; citation_share: per model, the
 * row's citations over every citation of the same answer-level group (here: the date, or the model)
 * before citation-level filters, averaged over the models with citations in that group, adding the
 * shares in ascending order. Every analysis type; the window is [start, end) in New York days.
 */

const everyPrompt = `SEMI JOIN prompts p ON p.id = f.prompt_id`;
const base = `f.category_id, ${daySql('f.day')} AS d, f.model_id::floor_model AS model`;

const rollups: FloorRollup[] = [
  {
    name: 'floor_cit1_answers',
    grain: 'category × day × model × region',
    measures: 'citations (the share denominators)',
    source: 'citations of every prompt',
    sql: `SELECT ${base}, f.region_id::floor_region AS region, count(*)::INTEGER AS n FROM citations f ${everyPrompt} GROUP BY ALL ORDER BY ALL`,
  },
  {
    name: 'floor_cit1_domains',
    readBy: 'window series, model × root domain',
    grain: 'category × day × model × region × root domain × citation category',
    measures: 'citations',
    source: 'citations of every prompt',
    sql: `SELECT ${base}, f.region_id::floor_region AS region, f.root_domain::floor_domain AS domain, f.citation_category AS ccat, count(*)::INTEGER AS n FROM citations f ${everyPrompt} GROUP BY ALL ORDER BY ALL`,
  },
  {
    name: 'floor_cit1_urls',
    readBy: 'URL × day pages and stream',
    grain: 'category × day × model × URL',
    measures: 'citations',
    source: 'citations of every prompt',
    sql: `SELECT ${base}, f.url::floor_url AS url, count(*)::INTEGER AS n FROM citations f ${everyPrompt} GROUP BY ALL ORDER BY ALL`,
  },
];

const window = 'category_id = $1 AND d >= $2 AND d < $3';
const params = (p: IterationParams) => [p.categoryId, dayNumber(p.startDate), dayNumber(addDays(p.endDate, 1))];

/** The mean of per-model shares, added in ascending order, over the `models` with citations in the group. */
function share(shares: number[], models: number): number {
  shares.sort((a, b) => a - b);
  let sum = 0;
  for (const s of shares) sum += s;
  return sum / models;
}

interface Row {
  count: number;
  shares: number[];
  readonly dims: readonly number[];
}

const rowJson = (count: number, sh: number, dims: string) => `{"metrics":[${count},${num(sh)}],"dimensions":[${dims}]}`;

/** By root domain (the window series), or by model × root domain with answer- and citation-level filters. */
function domainFloor(byModel: boolean, filters?: (env: FloorEnv) => { answers: string; cited: string }) {
  return page(async (env, p) => {
    const f = filters?.(env) ?? { answers: '', cited: '' };
    const [dm, mm, nn] = await env.db.columns(`SELECT enum_code(domain), enum_code(model), sum(n)::INTEGER FROM floor_cit1_domains WHERE ${window}${f.answers}${f.cited} GROUP BY ALL`, params(p));
    const [tm, tn] = await env.db.columns(`SELECT enum_code(model), sum(n)::INTEGER FROM floor_cit1_answers WHERE ${window}${f.answers} GROUP BY ALL`, params(p));
    const totals = new Map<number, number>();
    tm!.forEach((m, i) => totals.set(m as number, tn![i] as number));
    const rows = new Map<string, Row>();
    for (let i = 0; i < dm!.length; i++) {
      const model = mm![i] as number;
      const dims = byModel ? [model, dm![i] as number] : [dm![i] as number];
      const key = dims.join(',');
      let r = rows.get(key);
      if (!r) rows.set(key, (r = { count: 0, shares: [], dims }));
      r.count += nn![i] as number;
      r.shares.push((nn![i] as number) / totals.get(model)!);
    }
    const domains = await env.dims.values('floor_domain');
    const models = env.dims.models;
    const list = [...rows.values()].sort(
      (a, b) =>
        b.count - a.count ||
        (byModel ? compareText(models[a.dims[0]!]!.name, models[b.dims[0]!]!.name) || compareText(models[a.dims[0]!]!.id, models[b.dims[0]!]!.id) : 0) ||
        a.dims[a.dims.length - 1]! - b.dims[b.dims.length - 1]!,
    );
    const out = list.map((r) => {
      const dims = r.dims.map((v, i) => (byModel && i === 0 ? str(models[v]!.name) : str(domains[v]!))).join(',');
      return rowJson(r.count, share(r.shares, byModel ? 1 : totals.size), dims);
    });
    return tabularPage(out.length, out);
  });
}

/** URL × date rows in order (count descending, URL, date), each with its per-model counts, and the total. */
const urlDateSql = (limit: string) => `WITH r AS (SELECT d, url, model, n FROM floor_cit1_urls WHERE ${window}),
g AS (SELECT url, d, sum(n)::INTEGER AS cnt FROM r GROUP BY ALL),
pg AS (SELECT url, d, cnt FROM g ORDER BY cnt DESC, url, d ${limit})
SELECT enum_code(pg.url), pg.d, pg.cnt, enum_code(r.model), r.n, (SELECT count(*)::INTEGER FROM g)
FROM pg JOIN r USING (url, d) ORDER BY pg.cnt DESC, pg.url, pg.d`;

/** Per day, each model's citations, and the number of models with citations that day. */
async function dayTotals(env: FloorEnv, p: IterationParams) {
  const [d, m, n] = await env.db.columns(`SELECT d, enum_code(model), sum(n)::INTEGER FROM floor_cit1_answers WHERE ${window} GROUP BY ALL`, params(p));
  const totals = new Map<number, number>();
  const models = new Map<number, number>();
  for (let i = 0; i < d!.length; i++) {
    totals.set((d![i] as number) * 256 + (m![i] as number), n![i] as number);
    models.set(d![i] as number, (models.get(d![i] as number) ?? 0) + 1);
  }
  return { totals, models };
}

/** Writes the rows of exploded (url, d, count, model, n) columns, one row per run of the same (url, d). */
function urlDateRows(c: unknown[][], totals: Map<number, number>, models: Map<number, number>, urls: readonly string[], out: string[], pending?: { url: number; d: number; count: number; shares: number[] }) {
  const [u, d, cnt, m, n] = c as number[][];
  let cur = pending;
  for (let i = 0; i < u!.length; i++) {
    if (!cur || cur.url !== u![i] || cur.d !== d![i]) {
      if (cur) out.push(rowJson(cur.count, share(cur.shares, models.get(cur.d)!), `${str(urls[cur.url]!)},"${dayLabel(cur.d)}"`));
      cur = { url: u![i]!, d: d![i]!, count: cnt![i]!, shares: [] };
    }
    cur.shares.push(n![i]! / totals.get(d![i]! * 256 + m![i]!)!);
  }
  return cur;
}

function urlDateFloor(limit: number, pageNo: number) {
  const sqlText = urlDateSql(`LIMIT ${limit} OFFSET ${(pageNo - 1) * limit}`);
  const countSql = `SELECT count(*)::INTEGER FROM (SELECT DISTINCT url, d FROM floor_cit1_urls WHERE ${window})`;
  return page(async (env, p) => {
    const c = await env.db.columns(sqlText, params(p));
    const { totals, models } = await dayTotals(env, p);
    const urls = await env.dims.values('floor_url');
    const out: string[] = [];
    const last = urlDateRows(c, totals, models, urls, out);
    if (last) out.push(rowJson(last.count, share(last.shares, models.get(last.d)!), `${str(urls[last.url]!)},"${dayLabel(last.d)}"`));
    const total = c[0]!.length > 0 ? (c[5]![0] as number) : ((await env.db.columns(countSql, params(p)))[0]![0] as number);
    return tabularPage(total, out);
  });
}

/** The stream: the same ordered statement, read a chunk at a time (its order is by count, so it cannot be sliced by time). */
const urlDateStream = stream(async function* (env, p) {
  const { totals, models } = await dayTotals(env, p);
  const urls = await env.dims.values('floor_url');
  let pending: ReturnType<typeof urlDateRows>;
  for await (const { columns } of env.db.chunks(urlDateSql(''), params(p))) {
    const out: string[] = [];
    pending = urlDateRows(columns, totals, models, urls, out, pending);
    yield out;
  }
  if (pending) yield [rowJson(pending.count, share(pending.shares, models.get(pending.d)!), `${str(urls[pending.url]!)},"${dayLabel(pending.d)}"`)];
});

const regionsAndEarned = (env: FloorEnv) => ({
  answers: ` AND region IN (${['United States', 'Canada'].map((n) => `'${env.dims.regions[env.dims.regionCode.get(n)!]!.id}'`).join(', ')})`,
  cited: ` AND ccat = 'earned_media'`,
});

export const citationsV1Floors: ReportFloors = {
  report: 'citations-v1',
  rollups,
  floors: () => ({
    ...Object.fromEntries([1, 7, 30, 90, 365].map((d) => [`window-${d}`, domainFloor(false)])),
    'url-date-90-1k': urlDateFloor(1000, 1),
    'url-date-90-1k-p50': urlDateFloor(1000, 50),
    'url-date-90-50k': urlDateFloor(50_000, 1),
    'model-domain-filter-30': domainFloor(true, regionsAndEarned),
    'stream-url-date-90': urlDateStream,
  }),
};
