/**
 * The library's resource methods (`engine.org(id).resources.<name>`), by name; `test/report-types.test.ts`
 * checks they are exactly the registry's. Inputs are `{params, query, body}` as the REST service reads
 * them; an answer is JSON, typed where listed in `ResourceAnswers`.
 */
export const resourceNames = [
  'organizations',
  'categories',
  'domains',
  'personas',
  'assets',
  'models',
  'regions',
  'citationTags',
  'citationCategories',
  'categoryPersonas',
  'categoryAssets',
  'categoryTopics',
  'categoryTags',
  'prompts',
  'createPrompts',
  'updatePrompts',
  'updatePromptStatus',
  'contentOptimizations',
  'contentOptimization',
  'agents',
  'agent',
  'publishAgent',
  'createAgentRun',
  'agentRun',
  'knowledgeBases',
  'searchKnowledgeBase',
  'createKnowledgeBaseDocument',
  'updateKnowledgeBaseDocument',
  'deleteKnowledgeBaseDocument',
  'createKnowledgeBaseFolder',
  'deleteKnowledgeBaseFolder',
] as const;

export type ResourceName = (typeof resourceNames)[number];

/** An agent run as `agentRun` answers it (`runJson` in src/resources/agents/agent-rows.ts builds it); `createAgentRun` answers the queued run. */
export interface AgentRun {
  readonly id: string;
  readonly agent_id: string;
  readonly version: number;
  readonly status: string;
  readonly inputs: unknown;
  readonly outputs: unknown;
  readonly error: unknown;
  readonly created_at: string | null;
  readonly started_at: string | null;
  readonly finished_at: string | null;
}

export interface QueuedRun {
  readonly id: string;
  readonly agent_id: string;
  readonly status: string;
  readonly started_at: string | null;
  readonly version: number;
  readonly created_at: string;
}

export interface ResourceAnswers {
  createAgentRun: QueuedRun;
  agentRun: AgentRun;
}
