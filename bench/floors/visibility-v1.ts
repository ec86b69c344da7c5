import type { IterationParams } from '../lib/case.ts';
import { addDays } from '../lib/dataset.ts';
import { dayLabel, daySql, dayNumber } from './days.ts';
import { compareText, type Brand } from './dims.ts';
import { num, str, tabularPage } from './json.ts';
import { page, stream, type FloorEnv, type FloorRollup, type ReportFloors } from './types.ts';
import { visibilityPrompts, visibilityRollups } from './visibility-rollups.ts';

/**
 * v1 visibility. With an asset dimension every brand of the category has a row in each group with
 * answers, scored as v2 does (visibility = mentions / answers, share of voice over the group's mentions,
 * average position); rows are ordered by the first metric (visibility) descending, then every dimension
 * ascending (dates, then names and ids). Without one, the organization's own brands taken together.
 * The window is [start, end) in New York days; it reads the v2 visibility rollups.
 */

const ownedRollup: FloorRollup = {
  name: 'floor_vis_owned_dmr',
  readBy: 'visibility-v1 owned-region-90',
  grain: 'category × day × model × region',
  measures: 'answers mentioning at least one of the organization’s own brands',
  source: 'mentions of the prompts carrying the visibility type, of owned brands',
  sql: `SELECT f.category_id, ${daySql('f.day')} AS d, f.model_id::floor_model AS model, f.region_id::floor_region AS region, count(DISTINCT f.execution_id)::INTEGER AS n
FROM mentions f ${visibilityPrompts} JOIN assets a ON a.id = f.asset_id AND a.is_owned GROUP BY ALL ORDER BY ALL`,
};

const window = 'category_id = $1 AND d >= $2 AND d < $3';
const params = (p: IterationParams) => [p.categoryId, dayNumber(p.startDate), dayNumber(addDays(p.endDate, 1))];

const metrics = (n: number, ex: number, tot: number, pos: number | null) =>
  `${num(n / ex)},${tot === 0 ? 0 : num(n / tot)},${n},${ex},${num(n === 0 || pos === null ? 0 : pos / n)}`;

/** One row per brand: by brand only (the window series), or by day × model × brand. */
function dayModelFloor(byDayModel: boolean, limit: number) {
  return page(async (env, p) => {
    const keys = byDayModel ? 'd, enum_code(model)' : '0, 0';
    const [ed, em, en] = await env.db.columns(
      `SELECT ${keys}, sum(n)::INTEGER FROM floor_vis_answers_dm WHERE ${window} GROUP BY ALL`,
      params(p),
    );
    const [md, mm, ma, mn, mp] = await env.db.columns(
      `SELECT ${keys}, enum_code(asset), sum(n)::INTEGER, sum(pos) FROM floor_vis_mentions_dm WHERE ${window} GROUP BY ALL`,
      params(p),
    );
    const key = (d: number, m: number) => (byDayModel ? d * 256 + m : 0);
    const groups = new Map<
      number,
      { d: number; m: number; ex: number; tot: number; n: Map<number, number>; pos: Map<number, number> }
    >();
    for (let i = 0; i < ed!.length; i++) {
      const k = key(ed![i] as number, em![i] as number);
      const g = groups.get(k);
      if (g) g.ex += en![i] as number;
      else
        groups.set(k, {
          d: ed![i] as number,
          m: em![i] as number,
          ex: en![i] as number,
          tot: 0,
          n: new Map(),
          pos: new Map(),
        });
    }
    for (let i = 0; i < md!.length; i++) {
      const g = groups.get(key(md![i] as number, mm![i] as number))!;
      const a = ma![i] as number;
      g.n.set(a, (g.n.get(a) ?? 0) + (mn![i] as number));
      g.pos.set(a, (g.pos.get(a) ?? 0) + (mp![i] as number));
      g.tot += mn![i] as number;
    }
    const brands = env.dims.brands(p.categoryId);
    const models = env.dims.models;
    const rows = [...groups.values()].flatMap((g) => brands.map((b, bi) => ({ g, b, bi, n: g.n.get(b.code) ?? 0 })));
    rows.sort(
      (x, y) =>
        y.n / y.g.ex - x.n / x.g.ex ||
        (byDayModel
          ? x.g.d - y.g.d ||
            compareText(models[x.g.m]!.name, models[y.g.m]!.name) ||
            compareText(models[x.g.m]!.id, models[y.g.m]!.id)
          : 0) ||
        x.bi - y.bi,
    );
    const out = rows.slice(0, limit).map(({ g, b, n }) => {
      const dims = byDayModel ? `"${dayLabel(g.d)}",${str(models[g.m]!.name)},${str(b.name)}` : str(b.name);
      return `{"metrics":[${metrics(n, g.ex, g.tot, g.pos.get(b.code) ?? null)}],"dimensions":[${dims}]}`;
    });
    return tabularPage(rows.length, out);
  });
}

/**
 * Prompt × day × brand rows in order: every (prompt, day) group with answers crossed with every brand, a
 * top-N by visibility, then the prompt's text, the day and the brand's name (ranks of the category's
 * prompts and brands by name, read per request).
 */
const promptDaySql = (
  limit: string,
) => `WITH e AS (SELECT prompt, d, sum(n) AS ex FROM floor_vis_answers_dp WHERE ${window} GROUP BY ALL),
m AS (SELECT prompt, d, asset, sum(n) AS n, sum(pos) AS pos FROM floor_vis_mentions_dp WHERE ${window} GROUP BY ALL),
t AS (SELECT prompt, d, sum(n) AS tot FROM m GROUP BY ALL),
pr AS (SELECT TRY_CAST(id AS floor_prompt) AS prompt, row_number() OVER (ORDER BY prompt, id) AS prank FROM prompts WHERE category_id = $1),
b AS (SELECT id::floor_asset AS asset, row_number() OVER (ORDER BY name, id) AS brank FROM assets WHERE category_id = $1)
SELECT enum_code(e.prompt), e.d, enum_code(b.asset), coalesce(m.n, 0)::INTEGER AS n, m.pos, e.ex::INTEGER, coalesce(t.tot, 0)::INTEGER, (SELECT count(*)::INTEGER FROM e) AS groups
FROM e JOIN pr USING (prompt) CROSS JOIN b LEFT JOIN m USING (prompt, d, asset) LEFT JOIN t USING (prompt, d)
ORDER BY coalesce(m.n, 0) / e.ex DESC, pr.prank, e.d, b.brank ${limit}`;

async function promptNames(env: FloorEnv, p: IterationParams): Promise<Map<number, string>> {
  const [code, text] = await env.db.columns(
    'SELECT enum_code(TRY_CAST(id AS floor_prompt)), prompt FROM prompts WHERE category_id = $1',
    [p.categoryId],
  );
  return new Map(code!.map((c, i) => [c as number, str(text![i] as string)]));
}

function promptRows(env: FloorEnv, c: unknown[][], prompts: Map<number, string>, brands: readonly Brand[]): string[] {
  const [pc, d, a, n, pos, ex, tot] = c as number[][];
  const names = new Map(brands.map((b) => [b.code, str(b.name)]));
  const out: string[] = new Array(pc!.length);
  for (let i = 0; i < pc!.length; i++) {
    out[i] =
      `{"metrics":[${metrics(n![i]!, ex![i]!, tot![i]!, pos![i]!)}],"dimensions":[${prompts.get(pc![i]!)},"${dayLabel(d![i]!)}",${names.get(a![i]!)}]}`;
  }
  return out;
}

function promptDayFloor(limit: number, pageNo: number) {
  const sqlText = promptDaySql(`LIMIT ${limit} OFFSET ${(pageNo - 1) * limit}`);
  return page(async (env, p) => {
    const c = await env.db.columns(sqlText, params(p));
    const brands = env.dims.brands(p.categoryId);
    const groups =
      c[0]!.length > 0
        ? (c[7]![0] as number)
        : ((
            await env.db.columns(
              `SELECT count(*)::INTEGER FROM (SELECT DISTINCT prompt, d FROM floor_vis_answers_dp WHERE ${window})`,
              params(p),
            )
          )[0]![0] as number);
    return tabularPage(groups * brands.length, promptRows(env, c, await promptNames(env, p), brands));
  });
}

const promptDayStream = stream(async function* (env, p) {
  const prompts = await promptNames(env, p);
  const brands = env.dims.brands(p.categoryId);
  for await (const { columns } of env.db.chunks(promptDaySql(''), params(p)))
    yield promptRows(env, columns, prompts, brands);
});

/** The organization's own brands taken together, in one region. */
const ownedFloor = page(async (env, p) => {
  const region = ` AND region = '${env.dims.regions[env.dims.regionCode.get('United States')!]!.id}'`;
  const owned = env.dims
    .brands(p.categoryId)
    .filter((b) => b.owned)
    .map((b) => `'${b.id}'`)
    .join(', ');
  const [ex] = await env.db.columns(
    `SELECT sum(n)::INTEGER FROM floor_vis_answers_dmr WHERE ${window}${region}`,
    params(p),
  );
  const [all, n, pos] = await env.db.columns(
    `SELECT sum(n)::INTEGER, (sum(n) FILTER (asset IN (${owned || 'NULL'})))::INTEGER, sum(pos) FILTER (asset IN (${owned || 'NULL'})) FROM floor_vis_mentions_dmr WHERE ${window}${region}`,
    params(p),
  );
  const [mentioning] = await env.db.columns(
    `SELECT sum(n)::INTEGER FROM floor_vis_owned_dmr WHERE ${window}${region}`,
    params(p),
  );
  const answers = (ex![0] as number | null) ?? 0;
  if (answers === 0) return tabularPage(0, []);
  const mentions = (n![0] as number | null) ?? 0;
  const total = (all![0] as number | null) ?? 0;
  const row = `${num(((mentioning![0] as number | null) ?? 0) / answers)},${total === 0 ? 0 : num(mentions / total)},${mentions},${answers},${num(mentions === 0 ? 0 : (pos![0] as number) / mentions)}`;
  return tabularPage(1, [`{"metrics":[${row}],"dimensions":[]}`]);
});

export const visibilityV1Floors: ReportFloors = {
  report: 'visibility-v1',
  rollups: [...(['dm', 'dmr', 'dp'] as const).flatMap(visibilityRollups), ownedRollup],
  floors: () => ({
    ...Object.fromEntries([1, 7, 30, 90, 365].map((d) => [`window-${d}`, dayModelFloor(false, 10_000)])),
    'date-model-brand-30-1k': dayModelFloor(true, 1000),
    'prompt-date-brand-60-1k': promptDayFloor(1000, 1),
    'prompt-date-brand-60-1k-p50': promptDayFloor(1000, 50),
    'prompt-date-brand-60-50k': promptDayFloor(50_000, 1),
    'owned-region-90': ownedFloor,
    'stream-prompt-date-brand-60': promptDayStream,
  }),
};
