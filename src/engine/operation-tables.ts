import { MissingTableError } from '../errors.ts';
import { tableNames, type TableName } from '../model/tables.ts';

/**
 * Tables whose absence means "none of these": prompts without personas or tags, domains without saved
 * views, no citation tags, page analyses, evidence, merchants, content items or agents. A dataset may
 * leave them out and every operation still answers, as over an empty table.
 */
export const tablesThatMayBeEmpty: readonly TableName[] = [
  'personas',
  'tags',
  'domain_views',
  'citation_categories',
  'citation_tags',
  'citation_tag_domains',
  'page_analyses',
  'claim_evidence_links',
  'knowledge_bases',
  'kb_folders',
  'kb_documents',
  'product_merchants',
  'content_items',
  'agents',
  'agent_versions',
];

/** Every Insights report scopes a category's prompts and names topics, brands, models and regions. */
const insights: readonly TableName[] = ['categories', 'prompts', 'topics', 'assets', 'models', 'regions'];
const answers: readonly TableName[] = [
  ...insights,
  'executions',
  'mentions',
  'citations',
  'fanouts',
  'sentiments',
  'themes',
];
const claims: readonly TableName[] = [
  ...insights,
  'executions',
  'citations',
  'claim_occurrences',
  'claim_clusters',
  'themes',
];
const videos: readonly TableName[] = [...insights, 'citations'];
const promptSet: readonly TableName[] = ['categories', 'prompts', 'topics', 'assets', 'models', 'regions'];

/**
 * The dataset tables each operation reads (a stream reads what its page reads), besides those that
 * may be empty. test/optional-tables.test.ts proves each list complete: every report answers over a
 * folder holding only its tables exactly as over the whole dataset.
 */
export const operationTables: Readonly<Record<string, readonly TableName[]>> = {
  '/v2/reports/visibility': [...insights, 'executions', 'mentions'],
  '/v2/reports/shopping/products': [...insights, 'shopping_results', 'products'],
  '/v2/reports/social/youtube/channels': videos,
  '/v2/reports/social/videoplatform/channels': videos,
  '/v2/reports/social/youtube/videos': videos,
  '/v2/reports/social/videoplatform/videos': videos,
  '/v2/reports/factcheck/claims': claims,
  '/v2/reports/factcheck': claims,
  '/v2/reports/citations': [...insights, 'citations'],
  '/v2/reports/sentiment': [...insights, 'executions', 'citations', 'sentiments', 'themes', 'sentiment_claims'],
  '/v2/reports/query-fanouts': [...insights, 'executions', 'fanouts'],
  '/v2/prompts/answers': answers,
  '/v1/prompts/answers': answers,
  '/v1/reports/citations': [...insights, 'citations'],
  '/v1/reports/visibility': [...insights, 'executions', 'mentions'],
  '/v1/reports/sentiment': [...insights, 'sentiments', 'themes'],
  '/v1/reports/query-fanouts': [...insights, 'executions', 'fanouts'],
  '/v1/reports/bots': ['domains', 'bot_events'],
  '/v2/reports/bots': ['domains', 'bot_events'],
  '/v1/reports/referrals': ['domains', 'referral_visits'],
  '/v2/reports/referrals': ['domains', 'referral_visits'],
  '/v1/logs/raw': ['domains', 'bot_events', 'referral_visits'],
  '/v1/logs/raw/bots': ['domains', 'bot_events'],
  '/v1/knowledge-bases': [],
  '/v1/knowledge-bases/{knowledge_base_id}/search': [],
  '/v1/knowledge-bases/{knowledge_base_id}/documents': [],
  '/v1/knowledge-bases/{knowledge_base_id}/folders': [],
  '/v1/org': [],
  '/v1/org/categories': ['categories'],
  '/v1/org/domains': ['domains'],
  '/v1/org/personas': [],
  '/v1/org/assets': ['categories', 'assets'],
  '/v1/org/models': ['models'],
  '/v1/org/regions': ['regions'],
  '/v1/org/citation-tags': [],
  '/v1/org/citation-categories': [],
  '/v1/org/categories/{category_id}/personas': ['categories'],
  '/v1/org/categories/{category_id}/assets': ['categories', 'assets'],
  '/v1/org/categories/{category_id}/topics': ['categories', 'topics'],
  '/v1/org/categories/{category_id}/tags': ['categories'],
  '/v1/org/categories/{category_id}/prompts': promptSet,
  '/v1/org/categories/{category_id}/prompts/status': promptSet,
  '/v1/content/{asset_id}/optimization': ['assets'],
  '/v1/content/{asset_id}/optimization/{content_id}': ['assets'],
  '/v1/agents': [],
  '/v1/agents/{agent_id}': [],
  '/v1/agents/{agent_id}/publish': [],
  '/v1/agents/{agent_id}/runs': [],
  '/v1/agents/{agent_id}/runs/{run_id}': [],
};

/**
 * Tables an operation reads for optional parts of its rows: without them it still answers, those parts
 * empty. An imported answer has no themes, sentiments or fan-outs (and no citations without a citations
 * file), and is still an answer: it lists with empty lists.
 */
export const optionalTablesOf: Readonly<Record<string, readonly TableName[]>> = {
  '/v2/prompts/answers': ['citations', 'fanouts', 'sentiments', 'themes'],
  '/v1/prompts/answers': ['citations', 'fanouts', 'sentiments', 'themes'],
};

const operationOf = (path: string) => path.replace(/\/stream$/, '');

/** The dataset tables an operation needs, in contract order; empty for an operation this map does not know. */
export function tablesOf(path: string): TableName[] {
  const needed = new Set(operationTables[operationOf(path)] ?? []);
  return tableNames.filter((t) => needed.has(t));
}

/** Refuses an operation that reads a table the dataset does not have, naming every such table. */
export function requireTables(path: string, missing: ReadonlySet<TableName>): void {
  if (missing.size === 0) return;
  const optional = optionalTablesOf[operationOf(path)] ?? [];
  const absent = tablesOf(path).filter((t) => missing.has(t) && !optional.includes(t));
  if (absent.length > 0) throw new MissingTableError(operationOf(path), absent);
}
