import type { runJson } from './agents/agent-rows.ts';

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

/** An agent run as `agentRun` answers it; `createAgentRun` answers the queued run. */
export type AgentRun = ReturnType<typeof runJson>;

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
