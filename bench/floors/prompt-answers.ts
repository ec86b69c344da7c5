import type { DuckDBValue } from '@duckdb/node-api';
import type { IterationParams } from '../lib/case.ts';
import { dayLabel, daySql, dayNumber } from './days.ts';
import { refJson, str, v2Page } from './json.ts';
import { inList, uuidList } from './keys.ts';
import { page, stream, type FloorEnv, type FloorRollup, type ReportFloors } from './types.ts';
import { windowParams } from './window.ts';

/**
 * v2 prompt answers: one row per answer of the window, newest first (instant, then run id); the page's
 * answers are found with a top-N over an in-memory index of the answers (no text), then only their
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
    measures: 'its instant, model, region, persona and prompt, and its brands mentioned, cited URLs and search queries by position (as codes; no text)',
    source: 'executions of every prompt, with their mentions, citations and fanouts',
    sql: `SELECT f.category_id, ${daySql('f.day')} AS d, epoch(f.executed_at) AS instant, f.id AS run, f.model_id::floor_model AS model, f.region_id::floor_region AS region,
  TRY_CAST(f.persona_id AS floor_persona) AS persona, f.prompt_id::floor_prompt AS prompt, m.codes AS mentions, c.codes AS citations, q.codes AS queries
FROM executions f SEMI JOIN prompts p ON p.id = f.prompt_id
LEFT JOIN ${byRun('mentions', 'asset_id::floor_asset')} m ON m.execution_id = f.id
LEFT JOIN ${byRun('citations', 'url::floor_url')} c ON c.execution_id = f.id
LEFT JOIN ${byRun('fanouts', 'query::floor_query')} q ON q.execution_id = f.id
ORDER BY category_id, d, instant`,
  },
];

type Field = 'run_id' | 'date' | 'model' | 'topic' | 'topic_id' | 'persona' | 'region' | 'tags' | 'prompt' | 'prompt_id' | 'response' | 'mentions' | 'citations' | 'search_queries' | 'analysis_types';
const allFields: readonly Field[] = ['run_id', 'date', 'model', 'topic', 'topic_id', 'persona', 'region', 'tags', 'prompt', 'prompt_id', 'response', 'mentions', 'citations', 'search_queries', 'analysis_types'];

interface Answer {
  readonly run: string;
  readonly instant: number;
  readonly model: number;
  readonly region: number;
  readonly persona: number | null;
  readonly prompt: number;
  readonly d: number;
  readonly lists: readonly (number[] | null)[];
}

type List = 'mentions' | 'citations' | 'search_queries';
const listColumn: Record<List, string> = { mentions: 'mentions', citations: 'citations', search_queries: 'queries' };

const index = 'category_id = $1 AND d BETWEEN $2 AND $3';
/** The index columns a request reads: the lists only when its fields show them. */
const answerCols = (fields: readonly Field[]) =>
  ['run::VARCHAR', 'instant', 'enum_code(model)', 'enum_code(region)', 'enum_code(persona)', 'enum_code(prompt)', 'd', ...(Object.keys(listColumn) as List[]).map((l) => (fields.includes(l) ? listColumn[l] : 'NULL'))].join(', ');

function answersOf(c: unknown[][]): Answer[] {
  const [run, instant, model, region, persona, prompt, d] = c as [string[], number[], number[], number[], (number | null)[], number[], number[]];
  return run.map((r, i) => ({ run: r, instant: instant[i]!, model: model[i]!, region: region[i]!, persona: persona[i]!, prompt: prompt[i]!, d: d[i]!, lists: [7, 8, 9].map((k) => c[k]![i] as number[] | null) }));
}

/** Writes the rows of some answers with the fields asked for, reading only what those fields need. */
async function rowsOf(env: FloorEnv, p: IterationParams, answers: readonly Answer[], fields: readonly Field[]): Promise<string[]> {
  if (answers.length === 0) return [];
  const runs = answers.map((a) => a.run);
  const from = Math.min(...answers.map((a) => a.d));
  const to = Math.max(...answers.map((a) => a.d));
  const need = (f: Field) => fields.includes(f);
  const texts = async (name: 'floor_url' | 'floor_query') => (await env.dims.values(name)).map(str);
  const brands = env.dims.assets.map((a) => str(a.name));
  const urls = need('citations') ? await texts('floor_url') : [];
  const queries = need('search_queries') ? await texts('floor_query') : [];
  const list = (codes: number[] | null, values: readonly string[]) => `[${(codes ?? []).map((c) => values[c]).join(',')}]`;
  const responses = new Map<string, string>();
  if (need('response')) {
    const ids = uuidList('id', runs);
    const [r, text] = await env.db.columns(`SELECT id::VARCHAR, response FROM executions WHERE category_id = $1 AND day BETWEEN $2::DATE AND $3::DATE${ids}`, [p.categoryId, dayLabel(from), dayLabel(to)]);
    r!.forEach((x, i) => responses.set(x as string, str(text![i] as string)));
  }
  const prompts = (await env.dims.values('floor_prompt')) as string[];
  const details = need('topic') || need('topic_id') || need('tags') || need('prompt') || need('analysis_types') ? await promptDetails(env, p, [...new Set(answers.map((a) => prompts[a.prompt]!))]) : null;
  const personas = need('persona') ? await personaNames(env, p) : null;
  const personaIds = await env.dims.values('floor_persona');
  const field: Record<Field, (a: Answer) => string> = {
    run_id: (a) => `"${a.run}"`,
    date: (a) => `"${new Date(a.instant * 1000).toISOString().slice(0, 19)}Z"`,
    model: (a) => refJson(env.dims.models[a.model]!.id, env.dims.models[a.model]!.name),
    topic: (a) => details!.get(prompts[a.prompt]!)!.topic,
    topic_id: (a) => details!.get(prompts[a.prompt]!)!.topicId,
    persona: (a) => (a.persona === null ? 'null' : str(personas!.get(personaIds[a.persona]!)!)),
    region: (a) => str(env.dims.regions[a.region]!.name),
    tags: (a) => details!.get(prompts[a.prompt]!)!.tags,
    prompt: (a) => details!.get(prompts[a.prompt]!)!.text,
    prompt_id: (a) => `"${prompts[a.prompt]}"`,
    response: (a) => responses.get(a.run)!,
    mentions: (a) => list(a.lists[0]!, brands),
    citations: (a) => list(a.lists[1]!, urls),
    search_queries: (a) => list(a.lists[2]!, queries),
    analysis_types: (a) => details!.get(prompts[a.prompt]!)!.types,
  };
  const keys = fields.map((f) => [str(f), field[f]] as const);
  return answers.map((a) => `{${keys.map(([k, f]) => `${k}:${f(a)}`).join(',')}}`);
}

/** Current prompt details (editable): text, topic, tag names, analysis types in the v2 vocabulary. */
async function promptDetails(env: FloorEnv, p: IterationParams, ids: readonly string[]) {
  const [id, text, topicId, topic, tags, types] = await env.db.columns(
    `SELECT p.id, p.prompt, p.topic_id, t.name, p.tag_ids, p.analysis_types FROM prompts p LEFT JOIN topics t ON t.id = p.topic_id WHERE p.category_id = $1${inList('p.id', ids)}`,
    [p.categoryId],
  );
  const [tagId, tagName] = await env.db.columns('SELECT id, name FROM tags WHERE category_id = $1', [p.categoryId]);
  const tagNames = new Map(tagId!.map((x, i) => [x as string, tagName![i] as string]));
  const out = new Map<string, { text: string; topic: string; topicId: string; tags: string; types: string }>();
  id!.forEach((x, i) =>
    out.set(x as string, {
      text: str(text![i] as string),
      topic: topic![i] === null ? 'null' : str(topic![i] as string),
      topicId: str(topicId![i] as string),
      tags: `[${(tags![i] as string[])
        .map((t) => tagNames.get(t)!)
        .sort()
        .map(str)
        .join(',')}]`,
      types: JSON.stringify((types![i] as string[]).map((t) => (t === 'accuracy' ? 'factcheck' : t))),
    }),
  );
  return out;
}

async function personaNames(env: FloorEnv, p: IterationParams): Promise<Map<string, string>> {
  const [id, name] = await env.db.columns('SELECT id, name FROM personas WHERE category_id = $1', [p.categoryId]);
  return new Map(id!.map((x, i) => [x as string, name![i] as string]));
}

interface Spec {
  readonly fields?: readonly Field[];
  readonly filter?: (env: FloorEnv) => string;
  readonly limit?: number;
  readonly page?: number;
}

function pageFloor(s: Spec) {
  const limit = s.limit ?? 10;
  const offset = ((s.page ?? 1) - 1) * limit;
  return page(async (env, p) => {
    const where = `${index}${s.filter?.(env) ?? ''}`;
    const fields = s.fields ?? allFields;
    const c = await env.db.columns(`SELECT ${answerCols(fields)}, (SELECT count(*)::INTEGER FROM floor_pa_index WHERE ${where}) FROM floor_pa_index WHERE ${where} ORDER BY instant DESC, run LIMIT ${limit} OFFSET ${offset}`, windowParams(p));
    const [m] = await env.db.columns(`SELECT DISTINCT enum_code(model) FROM floor_pa_index WHERE ${where}`, windowParams(p));
    const total = c[0]!.length > 0 ? (c[10]![0] as number) : ((await env.db.columns(`SELECT count(*)::INTEGER FROM floor_pa_index WHERE ${where}`, windowParams(p)))[0]![0] as number);
    const rows = await rowsOf(env, p, answersOf(c), fields);
    return v2Page(total, (m as number[]).map((x) => env.dims.models[x]!.name).sort(), rows);
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
      const c = await env.db.columns(`SELECT ${answerCols(s.fields ?? allFields)} FROM floor_pa_index WHERE ${index} ORDER BY instant DESC, run LIMIT $4`, bind);
      const rows = await rowsOf(env, p, answersOf(c), s.fields ?? allFields);
      sent += rows.length;
      yield rows;
    }
  });
}

const chatGpt = (env: FloorEnv) => ` AND model = '${env.dims.models[env.dims.modelCode.get('ChatGPT')!]!.id}'`;
const sentimentPrompts = () => ` AND prompt IN (SELECT id FROM prompts WHERE category_id = $1 AND list_contains(analysis_types, 'sentiment'))`;

export const promptAnswersFloors: ReportFloors = {
  report: 'prompt-answers',
  rollups,
  floors: () => ({
    ...Object.fromEntries([1, 7, 30, 90, 365].map((d) => [`window-${d}`, pageFloor({})])),
    'all-30-p50': pageFloor({ page: 50 }),
    'few-30': pageFloor({ fields: ['run_id', 'date', 'model', 'prompt'], limit: 50 }),
    'model-30': pageFloor({ filter: chatGpt }),
    'sentiment-90': pageFloor({ filter: sentimentPrompts }),
    'stream-365': streamFloor({ fields: ['run_id', 'date', 'model', 'region', 'prompt_id', 'mentions'] }, 50_000, 7),
  }),
};
