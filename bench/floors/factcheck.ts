import type { IterationParams } from '../lib/case.ts';
import { num, str, v2Page } from './json.ts';
import { byKeys, dateKeys, groupKey, refKeys, resolveKeys, type Key, type KeyDef } from './keys.ts';
import { page, stream, type FloorEnv, type ReportFloors } from './types.ts';
import { factcheckRollups, twoModels, window } from './factcheck-rollups.ts';
import { daySlices, pageDays, windowParams } from './window.ts';

/**
 * Fact-check scores: accurate and inaccurate occurrences per group, accuracy = accurate / both; groups in
 * order of their keys (dates ascending, names, then ids); a cited page counts the occurrences of every
 * answer citing it, pages by occurrences descending, then URL.
 */

const scoreJson = (prefix: string, acc: number, inacc: number) =>
  `{${prefix}"accuracy":${num(acc + inacc === 0 ? null : acc / (acc + inacc))},"accurate":${acc},"inaccurate":${inacc}}`;

interface ScoreSpec {
  readonly keys: readonly KeyDef[];
  readonly filter?: (env: FloorEnv) => string;
  readonly limit?: number;
  readonly page?: number;
}

/** Theme groups read the per-cluster rollup. */
const scoreTable = (s: ScoreSpec) => (s.keys.some((k) => k.field === 'theme') ? 'floor_fc_occ' : 'floor_fc_scores');

/** Score rows of the groups with occurrences over days [from, to], in order. */
async function scores(env: FloorEnv, p: IterationParams, s: ScoreSpec, ks: readonly Key[], from: number, to: number) {
  const sel = [...s.keys.map((k) => k.sql), 'sum(acc)::INTEGER', 'sum(inacc)::INTEGER'];
  const c = await env.db.columns(
    `SELECT ${sel.join(', ')} FROM ${scoreTable(s)} WHERE ${window}${s.filter?.(env) ?? ''} GROUP BY ALL`,
    [p.categoryId, from, to],
  );
  const k = ks.length;
  const groups = new Map<string, { vals: (number | null)[]; acc: number; inacc: number }>();
  for (let i = 0; i < c[k]!.length; i++) {
    // An aggregate without keys answers one row of NULLs over no input.
    if (c[k]![i] === null) continue;
    const vals = ks.map((_, j) => c[j]![i] as number | null);
    const g = groups.get(groupKey(vals));
    if (g) {
      g.acc += c[k]![i] as number;
      g.inacc += c[k + 1]![i] as number;
    } else groups.set(groupKey(vals), { vals, acc: c[k]![i] as number, inacc: c[k + 1]![i] as number });
  }
  const json = (g: { vals: (number | null)[]; acc: number; inacc: number }) =>
    scoreJson(ks.map((key, i) => `${key.part(g.vals[i]!)},`).join(''), g.acc, g.inacc);
  return { groups: [...groups.values()].sort(byKeys(ks)), json };
}

async function scoreModels(env: FloorEnv, p: IterationParams, filter: string) {
  const [m] = await env.db.columns(
    `SELECT DISTINCT enum_code(model) FROM floor_fc_answers WHERE ${window}${filter}`,
    windowParams(p),
  );
  return (m as number[]).map((x) => env.dims.models[x]!.name).sort();
}

function scoresPage(s: ScoreSpec) {
  const limit = s.limit ?? 10;
  return page(async (env, p) => {
    const [, from, to] = windowParams(p) as [string, number, number];
    const offset = ((s.page ?? 1) - 1) * limit;
    const ks = await resolveKeys(env, p, s.keys);
    const models = await scoreModels(env, p, s.filter?.(env) ?? '');
    if (s.keys[0] !== day) {
      const { groups, json } = await scores(env, p, s, ks, from, to);
      return v2Page(groups.length, models, groups.slice(offset, offset + limit).map(json));
    }
    // Groups led by the day: count each day's groups, then aggregate only the page's days.
    const distinct = s.keys.map((x, i) => `${x.sql} AS k${i}`).join(', ');
    const days = await pageDays(
      env,
      `SELECT k0, count(*)::INTEGER FROM (SELECT DISTINCT ${distinct} FROM ${scoreTable(s)} WHERE ${window}${s.filter?.(env) ?? ''}) GROUP BY k0 ORDER BY k0`,
      [p.categoryId, from, to],
      { start: offset, end: offset + limit },
    );
    if (days.from === null) return v2Page(days.total, models, []);
    const { groups, json } = await scores(env, p, s, ks, days.from, days.to);
    return v2Page(days.total, models, groups.slice(offset - days.before, offset + limit - days.before).map(json));
  });
}

/** Groups led by the date, a slice of days at a time. */
function scoresStream(s: ScoreSpec, sliceDays: number) {
  return stream(async function* (env, p) {
    const [, start, end] = windowParams(p) as [string, number, number];
    const ks = await resolveKeys(env, p, s.keys);
    for (const [from, to] of daySlices(start, end, sliceDays)) {
      const { groups, json } = await scores(env, p, s, ks, from, to);
      yield groups.map(json);
    }
  });
}

/** Cited pages by occurrences (accurate + inaccurate) descending, then URL. */
const citationPage = page(async (env, p) => {
  const [u, cat, acc, inacc] = await env.db.columns(
    `SELECT enum_code(url), ccat, sum(acc)::INTEGER AS a, sum(inacc)::INTEGER AS i FROM floor_fc_pages WHERE ${window} GROUP BY url, ccat ORDER BY a + i DESC, url LIMIT 10`,
    windowParams(p),
  );
  const [total] = await env.db.columns(
    `SELECT count(DISTINCT url)::INTEGER FROM floor_fc_pages WHERE ${window}`,
    windowParams(p),
  );
  const urls = await env.dims.values('floor_url');
  const rows = u!.map((x, i) =>
    scoreJson(
      `"citation":{"url":${str(urls[x as number]!)},"citation_category":${str(cat![i] as string)}},`,
      acc![i] as number,
      inacc![i] as number,
    ),
  );
  return v2Page(total![0] as number, await scoreModels(env, p, ''), rows);
});

const theme: KeyDef = {
  field: 'theme',
  sql: 'enum_code(theme)',
  kind: 'ref',
  enumName: 'floor_theme',
  names: 'SELECT id, name FROM themes WHERE category_id = $1',
  column: 'theme',
};
const { day, week } = dateKeys;
const { model, topic, prompt } = refKeys;
const windows = [1, 7, 30, 90, 365];

export const factcheckFloors: ReportFloors = {
  report: 'factcheck',
  rollups: factcheckRollups,
  floors: () => ({
    ...Object.fromEntries(windows.map((d) => [`window-${d}`, scoresPage({ keys: [] })])),
    'model-30': scoresPage({ keys: [model] }),
    'week-topic-90': scoresPage({ keys: [week, topic], limit: 50 }),
    'theme-models-30': scoresPage({ keys: [theme], filter: twoModels }),
    'citation-30': citationPage,
    'date-prompt-90': scoresPage({ keys: [day, prompt] }),
    'date-prompt-90-p50': scoresPage({ keys: [day, prompt], page: 50 }),
    'stream-date-prompt-365': scoresStream({ keys: [day, prompt] }, 92),
  }),
};
