import { promptAnswersReport } from '../../src/reports/answers/prompt-answers.ts';
import type { ReportCase } from '../lib/case.ts';
import { modelsHead, namedFloor, namedValues, type Envelope, type Row } from '../lib/floor.ts';
import { pagedPageBody, planProbe } from '../lib/plan-probe.ts';
import { requestMaker, windowDays } from '../lib/requests.ts';
import { v2Shape } from '../lib/v2-case.ts';

/**
 * v2 prompt answers: the window series (every field, newest first, page 1), page 50, a few fields on 50
 * rows, a model filter, an analysis-type filter, and a stream of 50,000 answers (max_results).
 *
 * The floor numbers the window's answers newest first, then builds the lists (brands mentioned, cited
 * URLs, search queries) for the page's answers only, reading only the window's days of those facts.
 */

const fields = [
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

function floorSql(e: Envelope, where: string): string {
  const window = `category_id = $category AND day BETWEEN $start::DATE AND $end::DATE`;
  const page = e.kind === 'stream' ? `ord <= ${e.cap ?? 'ord'}` : `ord > $offset AND ord <= $offset + ${e.limit}`;
  const ids = `execution_id IN (SELECT id FROM pg)`;
  return `WITH p AS (
  SELECT pr.id, pr.prompt, pr.topic_id, pr.analysis_types,
         (SELECT coalesce(list(t.name ORDER BY t.name, t.id), []) FROM tags t WHERE t.category_id = $category AND list_contains(pr.tag_ids, t.id)) AS tag_names
  FROM prompts pr WHERE pr.category_id = $category
),
e AS (SELECT f.* FROM executions f JOIN p ON p.id = f.prompt_id WHERE f.${window}${where}),
pg AS (SELECT * FROM (SELECT id, row_number() OVER (ORDER BY executed_at DESC, id) AS ord FROM e) WHERE ${page}),
lm AS (SELECT m.execution_id, list(a.name ORDER BY m.position, a.name) AS v FROM mentions m JOIN assets a ON a.id = m.asset_id WHERE m.${window} AND m.${ids} GROUP BY 1),
lc AS (SELECT execution_id, list(url ORDER BY position) AS v FROM citations WHERE ${window} AND ${ids} GROUP BY 1),
lq AS (SELECT execution_id, list(query ORDER BY position) AS v FROM fanouts WHERE ${window} AND ${ids} GROUP BY 1)
${e.kind === 'page' ? `SELECT 0 AS ord, (SELECT count(*) FROM e) AS total${modelsHead('e')}\nUNION ALL BY NAME\n` : ''}SELECT pg.ord, CAST(f.id AS VARCHAR) AS run_id, strftime(f.executed_at, '%Y-%m-%dT%H:%M:%SZ') AS date, f.model_id, mo.name AS model_name,
       tp.name AS topic, p.topic_id, pe.name AS persona, rg.name AS region, p.tag_names AS tags, p.prompt, f.prompt_id, f.response,
       coalesce(lm.v, []) AS mentions, coalesce(lc.v, []) AS citations, coalesce(lq.v, []) AS search_queries,
       list_transform(p.analysis_types, t -> CASE WHEN t = 'accuracy' THEN 'factcheck' ELSE t END) AS analysis_types
FROM pg JOIN e f ON f.id = pg.id JOIN p ON p.id = f.prompt_id
LEFT JOIN models mo ON mo.id = f.model_id LEFT JOIN regions rg ON rg.id = f.region_id LEFT JOIN personas pe ON pe.id = f.persona_id LEFT JOIN topics tp ON tp.id = p.topic_id
LEFT JOIN lm ON lm.execution_id = f.id LEFT JOIN lc ON lc.execution_id = f.id LEFT JOIN lq ON lq.execution_id = f.id
ORDER BY ord`;
}

function row(include: readonly string[]) {
  return (r: Row) => {
    const all: Row = { ...r, model: { id: r.model_id, name: r.model_name } };
    return Object.fromEntries(include.map((f) => [f, all[f]]));
  };
}

function floor(include: readonly string[] = fields, where = '') {
  return (e: Envelope) =>
    namedFloor(
      floorSql(e, where),
      (rows) => {
        if (e.kind === 'stream') return rows.map(row(include));
        const [head, ...data] = rows;
        return { total: head!.total, models: head!.models, rows: data.map(row(include)) };
      },
      (e.page - 1) * e.limit,
    );
}

const make = requestMaker(v2Shape(10));
const few = ['run_id', 'date', 'model', 'prompt'];
const streamed = ['run_id', 'date', 'model', 'region', 'prompt_id', 'mentions'];
const inputRows = `SELECT count(*) FROM executions WHERE category_id = $category AND day BETWEEN $start::DATE AND $end::DATE`;

export const promptAnswersCase: ReportCase = {
  report: 'prompt-answers',
  path: promptAnswersReport.path,
  streamPath: promptAnswersReport.streamPath!,
  plan: planProbe(promptAnswersReport),
  pageBody: pagedPageBody(promptAnswersReport),
  inputRows: { sql: inputRows, params: (p) => namedValues(inputRows, p) },
  requests: () => [
    ...windowDays.map((d) =>
      make({ id: `window-${d}`, label: `${d} d, every field, page 1`, days: d, windowSeries: true }, floor()),
    ),
    make(
      { id: 'all-30-p50', label: '30 d, every field, page 50', days: 30, page: 50, firstPageOf: 'window-30' },
      floor(),
    ),
    make(
      { id: 'few-30', label: '30 d, four fields, 50 rows', days: 30, body: { include: few, limit: 50 } },
      floor(few),
    ),
    make(
      {
        id: 'model-30',
        label: '30 d, one model',
        days: 30,
        body: { filter: { field: 'model', op: 'is', value: 'ChatGPT' } },
      },
      floor(fields, `\n    AND f.model_id = (SELECT id FROM models WHERE name = 'ChatGPT')`),
    ),
    make(
      {
        id: 'sentiment-90',
        label: '90 d, sentiment prompts',
        days: 90,
        body: { filter: { field: 'analysis_type', op: 'is', value: 'sentiment' } },
      },
      floor(fields, `\n    AND list_contains(p.analysis_types, 'sentiment')`),
    ),
    make(
      {
        id: 'stream-365',
        label: 'stream: 365 d, six fields, 50,000 answers',
        days: 365,
        stream: true,
        body: { include: streamed, max_results: 50_000 },
      },
      floor(streamed),
    ),
  ],
};
