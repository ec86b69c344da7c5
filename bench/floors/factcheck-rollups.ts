import { daySql } from './days.ts';
import type { FloorEnv, FloorRollup } from './types.ts';

/**
 * The fact-check floors' rollups. Scope: the answers of the prompts carrying the accuracy type; topics are
 * the prompts' when built, themes the category's theme of the cluster's theme name.
 */
const accuracyPrompts = `JOIN prompts p ON p.id = f.prompt_id AND list_contains(p.analysis_types, 'accuracy')`;
const keys = `f.category_id, ${daySql('f.day')} AS d, f.model_id::floor_model AS model, f.prompt_id::floor_prompt AS prompt, p.topic_id::floor_topic AS topic`;

export const factcheckRollups: FloorRollup[] = [
  {
    name: 'floor_fc_answers',
    grain: 'category × day × model × prompt (× its topic when built)',
    measures: 'answers',
    source: 'executions of the prompts carrying the accuracy type',
    sql: `SELECT ${keys}, count(*)::INTEGER AS n FROM executions f ${accuracyPrompts} GROUP BY ALL ORDER BY ALL`,
  },
  {
    name: 'floor_fc_occ',
    grain:
      'category × day × model × prompt (× its topic when built) × claim cluster (× the category’s theme of its theme name)',
    measures: 'accurate and inaccurate occurrences',
    source: 'claim_occurrences of the prompts carrying the accuracy type',
    sql: `SELECT ${keys}, f.cluster_id::floor_cluster AS cluster, TRY_CAST(t.id AS floor_theme) AS theme,
  (count(*) FILTER (f.accurate))::INTEGER AS acc, (count(*) FILTER (NOT f.accurate))::INTEGER AS inacc
FROM claim_occurrences f ${accuracyPrompts} JOIN claim_clusters c ON c.id = f.cluster_id LEFT JOIN themes t ON t.category_id = c.category_id AND t.name = c.theme
GROUP BY ALL ORDER BY ALL`,
  },
  {
    name: 'floor_fc_scores',
    readBy: 'factcheck, every request but theme-models-30 and citation-30',
    grain: 'category × day × model × prompt (× its topic when built)',
    measures: 'accurate and inaccurate occurrences',
    source: 'claim_occurrences of the prompts carrying the accuracy type',
    sql: `SELECT ${keys}, (count(*) FILTER (f.accurate))::INTEGER AS acc, (count(*) FILTER (NOT f.accurate))::INTEGER AS inacc FROM claim_occurrences f ${accuracyPrompts} GROUP BY ALL ORDER BY ALL`,
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

export const window = 'category_id = $1 AND d BETWEEN $2 AND $3';

export const twoModels = (env: FloorEnv) =>
  ` AND model IN (${['ChatGPT', 'Perplexity'].map((n) => `'${env.dims.models[env.dims.modelCode.get(n)!]!.id}'`).join(', ')})`;
