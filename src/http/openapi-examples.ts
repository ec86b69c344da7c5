/**
 * The bundled sample's identifiers (`aea sample --out DIR`, `npm start`). The sample is generated from
 * a fixed seed, so they never change while the generator does not; test/http-docs-examples.test.ts runs
 * every example below against it.
 */
export const sampleIds = {
  organization: '77f442e0-861d-4459-8f7a-49806c076ef9',
  /** "Backpacking Tents" of Acme Outdoor Co. */
  category: 'e23ea24a-7541-4b65-8d63-44894eb5afa4',
  /** "Acme Trail Backpacking", the owned brand of that category. */
  ownedAsset: '4752b1de-18ea-402f-8df4-47508ef83aac',
  contentOptimization: 'da52165c-4dc0-4c57-8df8-f064695f65aa',
  /** "Acme Trail visibility snapshot", published; its inputs are a category and a window. */
  agent: '5f6de78b-0c43-46c3-8a05-21bb55f6b11a',
  knowledgeBase: '02b64630-c047-4989-8461-fd691eb9d884',
  prompt: 'f9c8a2e1-43bc-4769-8aea-09c3812d74b3',
  domain: 'acmeoutdoor.com',
} as const;

/** What Swagger UI's "Try it out" starts from: path and query parameters, and the JSON body. */
export interface OperationExample {
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string | number>>;
  readonly body?: object;
}

const window = { category_id: sampleIds.category, start_date: '2026-10-01', end_date: '2026-10-31' };
const traffic = { domain: sampleIds.domain, start_date: '2026-10-01', end_date: '2026-10-31' };
const category = { category_id: sampleIds.category };
const kb = { knowledge_base_id: sampleIds.knowledgeBase };
const agent = { agent_id: sampleIds.agent };

/** A report page's example; its stream's is the same without the page size (a stream sends every row). */
const reports: Record<string, object> = {
  '/v2/reports/visibility': { ...window, scope: 'all', limit: 5 },
  '/v2/reports/shopping/products': { ...window, limit: 5 },
  '/v2/reports/social/youtube/channels': { ...window, limit: 5 },
  '/v2/reports/social/videoplatform/channels': { ...window, limit: 5 },
  '/v2/reports/social/youtube/videos': { ...window, limit: 5 },
  '/v2/reports/social/videoplatform/videos': { ...window, limit: 5 },
  '/v2/reports/factcheck/claims': { ...window, limit: 5 },
  '/v2/reports/citations': { ...window, group_by: ['page'], metrics: ['count', 'citation_share'], limit: 5 },
  '/v2/reports/sentiment': { ...window, asset: 'Acme Trail Backpacking', group_by: ['theme'], limit: 5 },
  '/v2/reports/query-fanouts': { ...window, limit: 5 },
  '/v2/reports/factcheck': { ...window, limit: 5 },
  '/v2/prompts/answers': { ...window, limit: 5 },
  '/v1/prompts/answers': { ...window, pagination: { limit: 5 } },
  '/v1/reports/citations': {
    ...window,
    metrics: ['count', 'citation_share'],
    dimensions: ['root_domain'],
    pagination: { limit: 5 },
  },
  '/v1/reports/visibility': { ...window, metrics: ['visibility_score', 'share_of_voice'], dimensions: ['asset_name'] },
  '/v1/reports/sentiment': { ...window, metrics: ['positive', 'negative', 'occurrences'], dimensions: ['theme'] },
  '/v1/reports/query-fanouts': {
    ...window,
    metrics: ['total_fanouts', 'fanouts_per_execution'],
    dimensions: ['model'],
  },
  '/v1/reports/bots': { ...traffic, metrics: ['count', 'last_visit'], dimensions: ['bot_provider'] },
  '/v2/reports/bots': { ...traffic, metrics: ['count', 'last_visit'], dimensions: ['bot_provider'] },
  '/v1/reports/referrals': { ...traffic, metrics: ['visits'], dimensions: ['referral_source'] },
  '/v2/reports/referrals': { ...traffic, metrics: ['visits'], dimensions: ['referral_source'] },
  '/v1/logs/raw': { ...traffic, metrics: ['count'], dimensions: ['host'] },
  '/v1/logs/raw/bots': { ...traffic, metrics: ['count'], dimensions: ['bot_name'] },
};

const resources: Record<string, OperationExample> = {
  'GET /v1/org': {},
  'GET /v1/org/categories': {},
  'GET /v1/org/domains': {},
  'GET /v1/org/personas': {},
  'GET /v1/org/assets': {},
  'GET /v1/org/models': {},
  'GET /v1/org/regions': {},
  'GET /v1/org/citation-tags': {},
  'GET /v1/org/citation-categories': {},
  'GET /v1/org/categories/{category_id}/personas': { params: category },
  'GET /v1/org/categories/{category_id}/assets': { params: category },
  'GET /v1/org/categories/{category_id}/topics': { params: category },
  'GET /v1/org/categories/{category_id}/tags': { params: category },
  'GET /v1/org/categories/{category_id}/prompts': { params: category },
  'POST /v1/org/categories/{category_id}/prompts': {
    params: category,
    body: {
      prompts: [
        {
          prompt: 'Which backpacking tent packs smallest for a week on the trail?',
          language: 'en-US',
          topic: 'Ultralight tents',
          platforms: ['ChatGPT'],
          regions: ['United States'],
        },
      ],
      dry_run: true,
    },
  },
  'PATCH /v1/org/categories/{category_id}/prompts': {
    params: category,
    body: {
      prompts: [{ id: sampleIds.prompt, prompt: 'What are the best backpacking tents for solo trips?' }],
      dry_run: true,
    },
  },
  'PATCH /v1/org/categories/{category_id}/prompts/status': {
    params: category,
    body: { prompt_ids: [sampleIds.prompt], status: 'disabled' },
  },
  'GET /v1/content/{asset_id}/optimization': { params: { asset_id: sampleIds.ownedAsset } },
  'GET /v1/content/{asset_id}/optimization/{content_id}': {
    params: { asset_id: sampleIds.ownedAsset, content_id: sampleIds.contentOptimization },
  },
  'GET /v1/agents': {},
  'GET /v1/agents/{agent_id}': { params: agent },
  'POST /v1/agents/{agent_id}/publish': { params: agent },
  'POST /v1/agents/{agent_id}/runs': { params: agent, body: { inputs: window } },
  // A run's id is known only once one was started: the example asks for one that is not there (404).
  'GET /v1/agents/{agent_id}/runs/{run_id}': { params: { ...agent, run_id: '00000000-0000-4000-8000-000000000000' } },
  'GET /v1/knowledge-bases': {},
  'POST /v1/knowledge-bases/{knowledge_base_id}/search': { params: kb, body: { query: 'warranty', top_k: 3 } },
  'POST /v1/knowledge-bases/{knowledge_base_id}/documents': {
    params: kb,
    body: { name: 'care.md', text: 'Dry the tent before storing it.', folder: 'guides' },
  },
  'PUT /v1/knowledge-bases/{knowledge_base_id}/documents': {
    params: kb,
    body: { name: 'care.md', text: 'Dry the tent fully before storing it.', folder: 'guides' },
  },
  'DELETE /v1/knowledge-bases/{knowledge_base_id}/documents': { params: kb, body: { name: 'guides/care.md' } },
  'POST /v1/knowledge-bases/{knowledge_base_id}/folders': { params: kb, body: { path: 'guides/winter' } },
  'DELETE /v1/knowledge-bases/{knowledge_base_id}/folders': { params: kb, body: { path: 'guides/winter' } },
};

/** The example of an operation, keyed `METHOD path`; undefined for one without (the docs then show the schema's placeholders). */
export function operationExample(method: string, path: string): OperationExample | undefined {
  const key = `${method.toUpperCase()} ${path}`;
  if (key in resources) return resources[key];
  const stream = path.endsWith('/stream');
  const report = reports[stream ? path.slice(0, -'/stream'.length) : path];
  if (method.toUpperCase() !== 'POST' || !report) return undefined;
  if (!stream) return { body: report };
  const { limit: _limit, pagination: _pagination, ...body } = report as { limit?: unknown; pagination?: unknown };
  return { body };
}

/** An OpenAPI operation with its example set on its parameters and its JSON request body, for "Try it out". */
export function withExample(operation: Record<string, unknown>, method: string, path: string): Record<string, unknown> {
  const example = operationExample(method, path);
  if (!example) return operation;
  const values: Record<string, unknown> = { ...example.params, ...example.query };
  const parameters = (operation.parameters as { name: string; in: string }[]).map((p) =>
    p.in !== 'header' && p.name in values ? { ...p, example: values[p.name] } : p,
  );
  const body = operation.requestBody as { content: Record<string, Record<string, unknown>> } | undefined;
  const json = body?.content['application/json'];
  return {
    ...operation,
    parameters,
    ...(body && json && example.body
      ? {
          requestBody: {
            ...body,
            content: { ...body.content, 'application/json': { ...json, example: example.body } },
          },
        }
      : {}),
  };
}
