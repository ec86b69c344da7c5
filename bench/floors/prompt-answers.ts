import type { DuckDBValue } from '@duckdb/node-api';
import type { IterationParams } from '../lib/case.ts';
import { dayLabel, daySql, dayNumber, isoSecond } from './days.ts';
import { refJson, str, v2Page } from './json.ts';
import { uuidList } from './keys.ts';
import { page, stream, type FloorEnv, type FloorRollup, type ReportFloors } from './types.ts';
import { windowParams } from './window.ts';

/**
 * v2 prompt answers: one row per answer of the window, newest first (instant, then run id); the page's
 * answers are found with a top-N over an in-memory index of the answers (no text), the window's total and
 * models from the answers counted by day and model, which also bound the top-N to the latest days that hold
 * the page (the index alone under a prompt filter), then only their
 * lists (brands mentioned, cited URLs, search queries by position), response and prompt details are read
 * from the facts. The stream walks back a slice of days at a time.
 */

// TRICKY: each code is packed under its position and the list sorted, which orders it by position at a
// fraction of the cost of an ordered aggregate (list(… ORDER BY position)); codes stay below 2^20.
const byRun = (table: string, value: string) =>
  `(SELECT execution_id, list_transform(list_sort(list((position::BIGINT << 20) + enum_code(${value}))), x -> (x & 1048575)::INTEGER) AS codes FROM ${table} GROUP BY execution_id)`;

const rollups: FloorRollup[] = [
  {
    name: 'floor_pa_index',
    grain: 'answer (execution)',
    measures:
      'its instant, model, region, persona and prompt, and its brands mentioned, cited URLs and search queries by position (as codes; no text)',
    source: 'executions of every prompt, with their mentions, citations and fanouts',
    sql: `SELECT f.category_id, ${daySql('f.day')} AS d, epoch(f.executed_at) AS instant, f.id AS run, f.model_id::floor_model AS model, f.region_id::floor_region AS region,
  TRY_CAST(f.persona_id AS floor_persona) AS persona, f.prompt_id::floor_prompt AS prompt, m.codes AS mentions, c.codes AS citations, q.codes AS queries
FROM executions f SEMI JOIN prompts p ON p.id = f.prompt_id
LEFT JOIN ${byRun('mentions', 'asset_id::floor_asset')} m ON m.execution_id = f.id
LEFT JOIN ${byRun('citations', 'url::floor_url')} c ON c.execution_id = f.id
LEFT JOIN ${byRun('fanouts', 'query::floor_query')} q ON q.execution_id = f.id
ORDER BY category_id, d, instant`,
  },
  {
    name: 'floor_pa_counts',
    grain: 'category × day × model',
    measures: 'the answers',
    source: 'executions of every prompt',
    readBy: 'the total and the models of a request filtered by the model at most',
    sql: `SELECT f.category_id, ${daySql('f.day')} AS d, f.model_id::floor_model AS model, count(*)::INTEGER AS n
FROM executions f SEMI JOIN prompts p ON p.id = f.prompt_id
GROUP BY ALL ORDER BY category_id, d, model`,
  },
];

type Field =
  | 'run_id'
  | 'date'
  | 'model'
  | 'topic'
  | 'topic_id'
  | 'persona'
  | 'region'
  | 'tags'
  | 'prompt'
  | 'prompt_id'
  | 'response'
  | 'mentions'
  | 'citations'
  | 'search_queries'
  | 'analysis_types';
const allFields: readonly Field[] = [
  'run_id',
  'date',
  'model',
  'topic',
  'topic_id',
  'persona',
  'region',
  'tags',
  'prompt',
  'prompt_id',
  'response',
  'mentions',
  'citations',
  'search_queries',
  'analysis_types',
];

interface Answer {
  readonly run: string;
  readonly instant: number;
  readonly model: number;
  readonly region: number;
  readonly persona: number | null;
  readonly prompt: number;
  readonly d: number;
  readonly lists: readonly (number[] | null)[];
  /** Persona name, prompt text, topic id and name, tag names, analysis types: read with the page's answers. */
  readonly details?: {
    persona: string | null;
    text: string;
    topicId: string;
    topic: string | null;
    tags: string[];
    types: string[];
  };
}

type List = 'mentions' | 'citations' | 'search_queries';
const listColumn: Record<List, string> = { mentions: 'mentions', citations: 'citations', search_queries: 'queries' };

const index = 'category_id = $1 AND d BETWEEN $2 AND $3';
/** The index columns a request reads: the lists only when its fields show them. */
const answerCols = (fields: readonly Field[], t = '') =>
  [
    `${t}run::VARCHAR`,
    `${t}instant`,
    `enum_code(${t}model)`,
    `enum_code(${t}region)`,
    `enum_code(${t}persona)`,
    `enum_code(${t}prompt)`,
    `${t}d`,
    ...(Object.keys(listColumn) as List[]).map((l) => (fields.includes(l) ? `${t}${listColumn[l]}` : 'NULL')),
  ].join(', ');

function answersOf(c: unknown[][], withDetails = false): Answer[] {
  const [run, instant, model, region, persona, prompt, d] = c as [
    string[],
    number[],
    number[],
    number[],
    (number | null)[],
    number[],
    number[],
  ];
  const detail = (i: number) => ({
    persona: c[10]![i] as string | null,
    text: c[11]![i] as string,
    topicId: c[12]![i] as string,
    topic: c[13]![i] as string | null,
    tags: (c[14]![i] as string[] | null) ?? [],
    types: c[15]![i] as string[],
  });
  return run.map((r, i) => ({
    run: r,
    instant: instant[i]!,
    model: model[i]!,
    region: region[i]!,
    persona: persona[i]!,
    prompt: prompt[i]!,
    d: d[i]!,
    lists: [7, 8, 9].map((k) => c[k]![i] as number[] | null),
    ...(withDetails ? { details: detail(i) } : {}),
  }));
}

/** Only the latest days that hold the first `rows` answers between them (every day when the window holds fewer). */
const latestDays = (where: string, rows: number) =>
  ` AND d >= (SELECT coalesce(max(d) FILTER (WHERE seen >= ${rows}), min(d)) FROM (SELECT d, sum(sum(n)) OVER (ORDER BY d DESC) AS seen FROM floor_pa_counts WHERE ${where} GROUP BY d))`;

/**
 * A page's answers in one statement: a top-N over the index, joined to the current prompt, topic, tags
 * and persona of those answers only, with the window's count and models beside them.
 */
const pageSql = (
  fields: readonly Field[],
  where: string,
  limit: number,
  offset: number,
  counts: string,
) => `SELECT ${answerCols(fields, 'pg.')},
  pe.name, pr.prompt, pr.topic_id, tp.name, (SELECT list(t.name ORDER BY t.name) FROM tags t WHERE list_contains(pr.tag_ids, t.id)), pr.analysis_types,
  (SELECT ${counts === 'floor_pa_counts' ? 'coalesce(sum(n), 0)' : 'count(*)'}::INTEGER FROM ${counts} WHERE ${where}), (SELECT list(DISTINCT enum_code(model)) FROM ${counts} WHERE ${where})
FROM (SELECT * FROM floor_pa_index WHERE ${where}${counts === 'floor_pa_counts' ? latestDays(where, limit + offset) : ''} ORDER BY instant DESC, run LIMIT ${limit} OFFSET ${offset}) pg
LEFT JOIN prompts pr ON pr.id = pg.prompt::VARCHAR LEFT JOIN topics tp ON tp.id = pr.topic_id LEFT JOIN personas pe ON pe.id = pg.persona::VARCHAR
ORDER BY pg.instant DESC, pg.run`;

/** Writes the rows of some answers with the fields asked for, reading only what those fields need. */
async function rowsOf(
  env: FloorEnv,
  p: IterationParams,
  answers: readonly Answer[],
  fields: readonly Field[],
): Promise<string[]> {
  if (answers.length === 0) return [];
  const runs = answers.map((a) => a.run);
  const from = Math.min(...answers.map((a) => a.d));
  const to = Math.max(...answers.map((a) => a.d));
  const need = (f: Field) => fields.includes(f);
  const texts = async (name: 'floor_url' | 'floor_query') => (await env.dims.values(name)).map(str);
  const brands = env.dims.assets.map((a) => str(a.name));
  const urls = need('citations') ? await texts('floor_url') : [];
  const queries = need('search_queries') ? await texts('floor_query') : [];
  const list = (codes: number[] | null, values: readonly string[]) =>
    `[${(codes ?? []).map((c) => values[c]).join(',')}]`;
  const responses = new Map<string, string>();
  if (need('response')) {
    const ids = uuidList('id', runs);
    const [r, text] = await env.db.columns(
      `SELECT id::VARCHAR, response FROM executions WHERE category_id = $1 AND day BETWEEN $2::DATE AND $3::DATE${ids}`,
      [p.categoryId, dayLabel(from), dayLabel(to)],
    );
    r!.forEach((x, i) => responses.set(x as string, str(text![i] as string)));
  }
  const prompts = (await env.dims.values('floor_prompt')) as string[];
  const nullable = (x: string | null) => (x === null ? 'null' : str(x));
  const field: Record<Field, (a: Answer) => string> = {
    run_id: (a) => `"${a.run}"`,
    date: (a) => `"${isoSecond(a.instant)}"`,
    model: (a) => refJson(env.dims.models[a.model]!.id, env.dims.models[a.model]!.name),
    topic: (a) => nullable(a.details!.topic),
    topic_id: (a) => str(a.details!.topicId),
    persona: (a) => nullable(a.details!.persona),
    region: (a) => str(env.dims.regions[a.region]!.name),
    tags: (a) => `[${a.details!.tags.map(str).join(',')}]`,
    prompt: (a) => str(a.details!.text),
    prompt_id: (a) => `"${prompts[a.prompt]}"`,
    response: (a) => responses.get(a.run)!,
    mentions: (a) => list(a.lists[0]!, brands),
    citations: (a) => list(a.lists[1]!, urls),
    search_queries: (a) => list(a.lists[2]!, queries),
    analysis_types: (a) => JSON.stringify(a.details!.types.map((t) => (t === 'accuracy' ? 'factcheck' : t))),
  };
  const keys = fields.map((f) => [str(f), field[f]] as const);
  return answers.map((a) => `{${keys.map(([k, f]) => `${k}:${f(a)}`).join(',')}}`);
}

interface Spec {
  readonly fields?: readonly Field[];
  readonly filter?: (env: FloorEnv) => string;
  /** The filter reads the prompt: the answers are counted from the index, not the counts by day and model. */
  readonly promptFilter?: true;
  readonly limit?: number;
  readonly page?: number;
}

function pageFloor(s: Spec) {
  const limit = s.limit ?? 10;
  const offset = ((s.page ?? 1) - 1) * limit;
  return page(async (env, p) => {
    const where = `${index}${s.filter?.(env) ?? ''}`;
    const fields = s.fields ?? allFields;
    const counts = s.promptFilter ? 'floor_pa_index' : 'floor_pa_counts';
    const c = await env.db.columns(pageSql(fields, where, limit, offset, counts), windowParams(p));
    const [total, models] =
      c[0]!.length > 0
        ? [c[16]![0] as number, c[17]![0] as number[]]
        : [
            (
              await env.db.columns(
                `SELECT ${counts === 'floor_pa_counts' ? 'coalesce(sum(n), 0)' : 'count(*)'}::INTEGER FROM ${counts} WHERE ${where}`,
                windowParams(p),
              )
            )[0]![0] as number,
            (
              await env.db.columns(`SELECT DISTINCT enum_code(model) FROM ${counts} WHERE ${where}`, windowParams(p))
            )[0] as number[],
          ];
    const rows = await rowsOf(env, p, answersOf(c, true), fields);
    return v2Page(total, models.map((x) => env.dims.models[x]!.name).sort(), rows);
  });
}

/** Newest first, a slice of days at a time from the window's end, up to `cap` rows. */
function streamFloor(s: Spec, cap: number, sliceDays: number) {
  return stream(async function* (env, p) {
    const start = dayNumber(p.startDate);
    let sent = 0;
    for (let to = dayNumber(p.endDate); to >= start && sent < cap; to -= sliceDays) {
      const from = Math.max(start, to - sliceDays + 1);
      const bind: DuckDBValue[] = [p.categoryId, from, to, cap - sent];
      const c = await env.db.columns(
        `SELECT ${answerCols(s.fields ?? allFields)} FROM floor_pa_index WHERE ${index} ORDER BY instant DESC, run LIMIT $4`,
        bind,
      );
      const rows = await rowsOf(env, p, answersOf(c), s.fields ?? allFields);
      sent += rows.length;
      yield rows;
    }
  });
}

const chatGpt = (env: FloorEnv) => ` AND model = '${env.dims.models[env.dims.modelCode.get('ChatGPT')!]!.id}'`;
const sentimentPrompts = () =>
  ` AND prompt IN (SELECT id FROM prompts WHERE category_id = $1 AND list_contains(analysis_types, 'sentiment'))`;

export const promptAnswersFloors: ReportFloors = {
  report: 'prompt-answers',
  rollups,
  floors: () => ({
    ...Object.fromEntries([1, 7, 30, 90, 365].map((d) => [`window-${d}`, pageFloor({})])),
    'all-30-p50': pageFloor({ page: 50 }),
    'few-30': pageFloor({ fields: ['run_id', 'date', 'model', 'prompt'], limit: 50 }),
    'model-30': pageFloor({ filter: chatGpt }),
    'sentiment-90': pageFloor({ filter: sentimentPrompts, promptFilter: true }),
    'stream-365': streamFloor({ fields: ['run_id', 'date', 'model', 'region', 'prompt_id', 'mentions'] }, 50_000, 31),
  }),
};
