import type { IterationParams } from '../lib/case.ts';
import { daySql } from './days.ts';
import { compareText } from './dims.ts';
import { num, str, v2Page } from './json.ts';
import { byKeys, dateKeys, groupKey, refKeys, resolveKeys, type KeyDef } from './keys.ts';
import { page, stream, type FloorEnv, type FloorRollup, type ReportFloors } from './types.ts';
import { daySlices, windowParams } from './window.ts';

/**
 * Fact-check. Scope: the answers of the prompts carrying the accuracy type. Claims: clusters with an
 * inaccurate occurrence in scope, occurrence = 100 × answers carrying it inaccurately / answers in scope (in
 * the section), by occurrence descending, then claim text, then id; sections by name, then id. Scores:
 * accurate and inaccurate occurrences per group; a cited page counts the occurrences of every answer
 * citing it.
 */

const accuracyPrompts = `JOIN prompts p ON p.id = f.prompt_id AND list_contains(p.analysis_types, 'accuracy')`;
const keys = `f.category_id, ${daySql('f.day')} AS d, f.model_id::floor_model AS model, f.prompt_id::floor_prompt AS prompt, p.topic_id::floor_topic AS topic`;

const rollups: FloorRollup[] = [
  {
    name: 'floor_fc_answers',
    grain: 'category × day × model × prompt (× its topic when built)',
    measures: 'answers',
    source: 'executions of the prompts carrying the accuracy type',
    sql: `SELECT ${keys}, count(*)::INTEGER AS n FROM executions f ${accuracyPrompts} GROUP BY ALL ORDER BY ALL`,
  },
  {
    name: 'floor_fc_occ',
    grain: 'category × day × model × prompt (× its topic when built) × claim cluster (× the category’s theme of its theme name)',
    measures: 'accurate and inaccurate occurrences',
    source: 'claim_occurrences of the prompts carrying the accuracy type',
    sql: `SELECT ${keys}, f.cluster_id::floor_cluster AS cluster, TRY_CAST(t.id AS floor_theme) AS theme,
  (count(*) FILTER (f.accurate))::INTEGER AS acc, (count(*) FILTER (NOT f.accurate))::INTEGER AS inacc
FROM claim_occurrences f ${accuracyPrompts} JOIN claim_clusters c ON c.id = f.cluster_id LEFT JOIN themes t ON t.category_id = c.category_id AND t.name = c.theme
GROUP BY ALL ORDER BY ALL`,
  },
  {
    name: 'floor_fc_pages',
    readBy: 'factcheck citation-30',
    grain: 'category × day × model × cited URL × citation category',
    measures: 'accurate and inaccurate occurrences of the answers citing the page',
    source: 'claim_occurrences of the prompts carrying the accuracy type × the distinct pages their answers cite',
    sql: `WITH pages AS (SELECT DISTINCT execution_id, url, citation_category FROM citations)
SELECT f.category_id, ${daySql('f.day')} AS d, f.model_id::floor_model AS model, g.url::floor_url AS url, g.citation_category AS ccat,
  (count(*) FILTER (f.accurate))::INTEGER AS acc, (count(*) FILTER (NOT f.accurate))::INTEGER AS inacc
FROM claim_occurrences f ${accuracyPrompts} JOIN pages g ON g.execution_id = f.execution_id GROUP BY ALL ORDER BY ALL`,
  },
];

interface Cluster {
  readonly id: string;
  readonly claim: string;
  readonly json: string;
  readonly details: string;
}

const clusters = (env: FloorEnv) =>
  env.dims.memo('clusters', async () => {
    const [code, id, claim, theme, reasoning] = await env.db.columns('SELECT enum_code(id::floor_cluster), id, claim, theme, reasoning FROM claim_clusters');
    const out = new Map<number, Cluster>();
    code!.forEach((c, i) =>
      out.set(c as number, {
        id: id![i] as string,
        claim: claim![i] as string,
        json: `"cluster_id":${str(id![i] as string)},"claim":${str(claim![i] as string)}`,
        details: `,"theme":${str(theme![i] as string)},"reasoning":${str(reasoning![i] as string)}`,
      }),
    );
    return out;
  });

const window = 'category_id = $1 AND d BETWEEN $2 AND $3';

interface ClaimSpec {
  readonly section?: KeyDef;
  readonly filter?: (env: FloorEnv) => string;
  readonly details?: boolean;
}

/** Per section (one when flat): answers, accurate and inaccurate occurrences, and each cluster's inaccurate answers. */
async function claims(env: FloorEnv, p: IterationParams, s: ClaimSpec) {
  const where = s.filter?.(env) ?? '';
  const key = s.section?.sql ?? '0';
  const [am, ak, an] = await env.db.columns(`SELECT enum_code(model), ${key}, sum(n)::INTEGER FROM floor_fc_answers WHERE ${window}${where} GROUP BY ALL`, windowParams(p));
  const [ok, oc, oa, oi] = await env.db.columns(`SELECT ${key}, enum_code(cluster), sum(acc)::INTEGER, sum(inacc)::INTEGER FROM floor_fc_occ WHERE ${window}${where} GROUP BY ALL`, windowParams(p));
  const answers = new Map<number | null, number>();
  ak!.forEach((k, i) => answers.set(k as number | null, (answers.get(k as number | null) ?? 0) + (an![i] as number)));
  const sections = new Map<number | null, { acc: number; inacc: number; claims: { cluster: number; n: number }[] }>();
  for (let i = 0; i < ok!.length; i++) {
    const k = ok![i] as number | null;
    let sec = sections.get(k);
    if (!sec) sections.set(k, (sec = { acc: 0, inacc: 0, claims: [] }));
    sec.acc += oa![i] as number;
    sec.inacc += oi![i] as number;
    if ((oi![i] as number) > 0) sec.claims.push({ cluster: oc![i] as number, n: oi![i] as number });
  }
  const catalog = await clusters(env);
  const claimRows = (k: number | null) => {
    const sec = sections.get(k)!;
    const total = answers.get(k)!;
    return sec.claims
      .map((c) => ({ c: catalog.get(c.cluster)!, occurrence: (100 * c.n) / total }))
      .sort((a, b) => b.occurrence - a.occurrence || compareText(a.c.claim, b.c.claim) || compareText(a.c.id, b.c.id))
      .map(({ c, occurrence }) => `{${c.json},"occurrence":${num(occurrence)}${s.details ? c.details : ''}}`);
  };
  const models = [...new Set(am as number[])].map((m) => env.dims.models[m]!.name).sort();
  return { sections, claimRows, models };
}

function claimsPage(s: ClaimSpec, limit = 25) {
  return page(async (env, p) => {
    const { sections, claimRows, models } = await claims(env, p, s);
    if (!s.section) {
      const rows = sections.has(0) ? claimRows(0) : [];
      return v2Page(rows.length, models, rows.slice(0, limit));
    }
    const [key] = await resolveKeys(env, p, [s.section]);
    const order = [...sections.keys()].map((k) => ({ vals: [k] })).sort(byKeys([key!]));
    const rows = order.slice(0, limit).map(({ vals: [k] }) => {
      const sec = sections.get(k!)!;
      const list = claimRows(k!);
      return `{${key!.part(k!)},"accuracy":${num(sec.acc + sec.inacc === 0 ? null : sec.acc / (sec.acc + sec.inacc))},"accurate":${sec.acc},"inaccurate":${sec.inacc},"total_claims":${list.length},"claims":[${list.join(',')}]}`;
    });
    return v2Page(order.length, models, rows);
  });
}

const claimsStream = stream(async function* (env, p) {
  const { sections, claimRows } = await claims(env, p, {});
  yield sections.has(0) ? claimRows(0) : [];
});

const scoreJson = (prefix: string, acc: number, inacc: number) => `{${prefix}"accuracy":${num(acc + inacc === 0 ? null : acc / (acc + inacc))},"accurate":${acc},"inaccurate":${inacc}}`;

interface ScoreSpec {
  readonly keys: readonly KeyDef[];
  readonly filter?: (env: FloorEnv) => string;
  readonly limit?: number;
  readonly page?: number;
}

/** Score rows of the groups with occurrences over days [from, to], in order. */
async function scores(env: FloorEnv, p: IterationParams, s: ScoreSpec, from: number, to: number) {
  const ks = await resolveKeys(env, p, s.keys);
  const sel = [...s.keys.map((k) => k.sql), 'sum(acc)::INTEGER', 'sum(inacc)::INTEGER'];
  const c = await env.db.columns(`SELECT ${sel.join(', ')} FROM floor_fc_occ WHERE ${window}${s.filter?.(env) ?? ''} GROUP BY ALL`, [p.categoryId, from, to]);
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
  return [...groups.values()].sort(byKeys(ks)).map((g) => scoreJson(ks.map((key, i) => `${key.part(g.vals[i]!)},`).join(''), g.acc, g.inacc));
}

async function scoreModels(env: FloorEnv, p: IterationParams, filter: string) {
  const [m] = await env.db.columns(`SELECT DISTINCT enum_code(model) FROM floor_fc_answers WHERE ${window}${filter}`, windowParams(p));
  return (m as number[]).map((x) => env.dims.models[x]!.name).sort();
}

function scoresPage(s: ScoreSpec) {
  const limit = s.limit ?? 10;
  return page(async (env, p) => {
    const [, from, to] = windowParams(p) as [string, number, number];
    const rows = await scores(env, p, s, from, to);
    const offset = ((s.page ?? 1) - 1) * limit;
    return v2Page(rows.length, await scoreModels(env, p, s.filter?.(env) ?? ''), rows.slice(offset, offset + limit));
  });
}

/** Groups led by the date, a slice of days at a time. */
function scoresStream(s: ScoreSpec, sliceDays: number) {
  return stream(async function* (env, p) {
    const [, start, end] = windowParams(p) as [string, number, number];
    for (const [from, to] of daySlices(start, end, sliceDays)) yield await scores(env, p, s, from, to);
  });
}

/** Cited pages by occurrences (accurate + inaccurate) descending, then URL. */
const citationPage = page(async (env, p) => {
  const [u, cat, acc, inacc] = await env.db.columns(
    `SELECT enum_code(url), ccat, sum(acc)::INTEGER AS a, sum(inacc)::INTEGER AS i FROM floor_fc_pages WHERE ${window} GROUP BY url, ccat ORDER BY a + i DESC, url LIMIT 10`,
    windowParams(p),
  );
  const [total] = await env.db.columns(`SELECT count(DISTINCT url)::INTEGER FROM floor_fc_pages WHERE ${window}`, windowParams(p));
  const urls = await env.dims.values('floor_url');
  const rows = u!.map((x, i) => scoreJson(`"citation":{"url":${str(urls[x as number]!)},"citation_category":${str(cat![i] as string)}},`, acc![i] as number, inacc![i] as number));
  return v2Page(total![0] as number, await scoreModels(env, p, ''), rows);
});

const twoModels = (env: FloorEnv) => ` AND model IN (${['ChatGPT', 'Perplexity'].map((n) => `'${env.dims.models[env.dims.modelCode.get(n)!]!.id}'`).join(', ')})`;
const theme: KeyDef = { field: 'theme', sql: 'enum_code(theme)', kind: 'ref', enumName: 'floor_theme', names: 'SELECT id, name FROM themes WHERE category_id = $1', column: 'theme' };
const { day, week } = dateKeys;
const { model, topic, prompt } = refKeys;
const windows = [1, 7, 30, 90, 365];

export const factcheckClaimsFloors: ReportFloors = {
  report: 'factcheck-claims',
  rollups: rollups.slice(0, 2),
  floors: () => ({
    ...Object.fromEntries(windows.map((d) => [`window-${d}`, claimsPage({})])),
    'details-30': claimsPage({ details: true }),
    'models-30': claimsPage({ filter: twoModels }),
    'topic-30': claimsPage({ section: topic }),
    'model-90': claimsPage({ section: model }),
    'stream-365': claimsStream,
  }),
};

export const factcheckFloors: ReportFloors = {
  report: 'factcheck',
  rollups,
  floors: () => ({
    ...Object.fromEntries(windows.map((d) => [`window-${d}`, scoresPage({ keys: [] })])),
    'model-30': scoresPage({ keys: [model] }),
    'week-topic-90': scoresPage({ keys: [week, topic], limit: 50 }),
    'theme-models-30': scoresPage({ keys: [theme], filter: twoModels }),
    'citation-30': citationPage,
    'date-prompt-90': scoresPage({ keys: [day, prompt] }),
    'date-prompt-90-p50': scoresPage({ keys: [day, prompt], page: 50 }),
    'stream-date-prompt-365': scoresStream({ keys: [day, prompt] }, 31),
  }),
};
