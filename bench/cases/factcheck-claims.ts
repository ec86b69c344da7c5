import { factcheckClaimsReport } from '../../src/reports/insights-v2/factcheck/factcheck-claims.ts';
import type { ReportCase } from '../lib/case.ts';
import { modelsHead, namedValues, ref, v2Floor, type Envelope, type Row } from '../lib/floor.ts';
import { pagedPageBody, planProbe } from '../lib/plan-probe.ts';
import { requestMaker, windowDays } from '../lib/requests.ts';
import { v2Shape } from '../lib/v2-case.ts';
import { keys, type FloorKey } from '../lib/v2-keys.ts';

/**
 * Fact-check claims: the window series (the flat list of inaccurate claims, most frequent first), with
 * theme and reasoning, with a model filter, sectioned by topic and by model, and the stream. A category
 * has about 40 claim clusters, so there is no page 50 and no stream of 50,000 rows.
 *
 * The floor: each inaccurate cluster's occurrences over the fact-check answers in scope (per section
 * when sectioned), as a percentage; sections with their accurate and inaccurate counts and claims.
 */

interface Shape {
  readonly section?: FloorKey;
  readonly details?: boolean;
  readonly where?: string;
}

function floorSql(s: Shape): string {
  const k = s.section ? `${s.section.expr} AS k, ` : '';
  const byK = s.section ? 'k, ' : '';
  const ctes = `WITH p AS (SELECT id, topic_id FROM prompts WHERE category_id = $category AND list_contains(analysis_types, 'accuracy')),
e AS (
  SELECT ${k}f.model_id FROM executions f JOIN p ON p.id = f.prompt_id
  WHERE f.category_id = $category AND f.day BETWEEN $start::DATE AND $end::DATE${s.where ?? ''}
),
a AS (SELECT ${byK}count(*) AS answers FROM e GROUP BY ALL),
o AS (
  SELECT ${k}f.cluster_id, f.accurate FROM claim_occurrences f JOIN p ON p.id = f.prompt_id
  WHERE f.category_id = $category AND f.day BETWEEN $start::DATE AND $end::DATE${s.where ?? ''}
),
claims AS (
  SELECT x.*, cc.claim, cc.theme, cc.reasoning, 100 * x.n / a.answers AS occurrence
  FROM (SELECT ${byK}cluster_id, count(*) AS n FROM o WHERE NOT accurate GROUP BY ALL) x
  JOIN a ON ${s.section ? 'a.k IS NOT DISTINCT FROM x.k' : 'TRUE'} JOIN claim_clusters cc ON cc.id = x.cluster_id
)`;
  if (!s.section) {
    return `${ctes},
rows AS (SELECT row_number() OVER (ORDER BY occurrence DESC, claim, cluster_id) AS ord, 0 AS seq, cluster_id, claim, occurrence, theme, reasoning FROM claims)`;
  }
  const t = s.section.table!;
  return `${ctes},
sec AS (SELECT k, count(*) FILTER (WHERE accurate) AS accurate, count(*) FILTER (WHERE NOT accurate) AS inaccurate FROM o GROUP BY k),
listed AS (SELECT k, count(*) AS total_claims, list({'cluster_id': cluster_id, 'claim': claim, 'occurrence': occurrence} ORDER BY occurrence DESC, claim, cluster_id) AS claims FROM claims GROUP BY k),
rows AS (
  SELECT row_number() OVER (ORDER BY n.${t.column} NULLS LAST, sec.k NULLS LAST) AS ord, 0 AS seq, sec.k, n.${t.column} AS name, sec.accurate, sec.inaccurate,
         coalesce(listed.total_claims, 0) AS total_claims, coalesce(listed.claims, []) AS claims
  FROM sec LEFT JOIN listed ON listed.k IS NOT DISTINCT FROM sec.k LEFT JOIN ${t.name} n ON n.id = sec.k
)`;
}

const row = (s: Shape) => (r: Row) =>
  s.section
    ? {
        [s.section.name]: ref(r.k, r.name),
        accuracy: (r.accurate as number) / ((r.accurate as number) + (r.inaccurate as number)),
        accurate: r.accurate,
        inaccurate: r.inaccurate,
        total_claims: r.total_claims,
        claims: r.claims,
      }
    : {
        cluster_id: r.cluster_id,
        claim: r.claim,
        occurrence: r.occurrence,
        ...(s.details ? { theme: r.theme, reasoning: r.reasoning } : {}),
      };

const floor = (s: Shape) => (e: Envelope) => v2Floor(floorSql(s), { ...e, head: modelsHead('e') }, row(s));

const make = requestMaker(v2Shape(25));
const twoModels = { field: 'model', op: 'in', value: ['ChatGPT', 'Perplexity'] };
const inTwoModels = `\n    AND f.model_id IN (SELECT id FROM models WHERE name IN ('ChatGPT', 'Perplexity'))`;
const inputRows = `SELECT count(*) FROM claim_occurrences WHERE category_id = $category AND day BETWEEN $start::DATE AND $end::DATE`;

export const factcheckClaimsCase: ReportCase = {
  report: 'factcheck-claims',
  path: factcheckClaimsReport.path,
  streamPath: factcheckClaimsReport.streamPath!,
  plan: planProbe(factcheckClaimsReport),
  pageBody: pagedPageBody(factcheckClaimsReport, 25),
  inputRows: { sql: inputRows, params: (p) => namedValues(inputRows, p) },
  requests: () => [
    ...windowDays.map((d) =>
      make({ id: `window-${d}`, label: `${d} d, claims, page 1`, days: d, windowSeries: true }, floor({})),
    ),
    make(
      { id: 'details-30', label: '30 d with theme and reasoning', days: 30, body: { include: ['theme', 'reasoning'] } },
      floor({ details: true }),
    ),
    make(
      { id: 'models-30', label: '30 d, two models', days: 30, body: { filter: twoModels } },
      floor({ where: inTwoModels }),
    ),
    make(
      { id: 'topic-30', label: '30 d by topic', days: 30, body: { group_by: ['topic'] } },
      floor({ section: keys.topic }),
    ),
    make(
      { id: 'model-90', label: '90 d by model', days: 90, body: { group_by: ['model'] } },
      floor({ section: keys.model }),
    ),
    make({ id: 'stream-365', label: 'stream: 365 d, every claim', days: 365, stream: true }, floor({})),
  ],
};
