import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Engine } from '../engine/engine.ts';
import type { Endpoint } from '../reports/endpoint.ts';
import { endpoints as registry } from '../reports/registry.ts';
import { budgetGate } from './call-gate.ts';
import { createMcpServer } from './create-mcp-server.ts';
import { engineSession } from './engine-session.ts';
import { ToolCatalog } from './tool-catalog.ts';
import { catalogSource } from './tool-source.ts';

export interface McpServerForOptions {
  readonly organizationId: string;
  readonly allowWrites?: boolean;
  readonly endpoints?: readonly Endpoint[];
}

/**
 * An MCP server over an opened engine, answering as one organization under the engine's time budget:
 * connect it to any transport of the SDK (`server.connect(transport)`) to embed it in another service.
 */
export function mcpServerFor(engine: Engine, options: McpServerForOptions): Server {
  const allowWrites = options.allowWrites === true;
  const session = engineSession(engine, options.organizationId, budgetGate(engine.core.limits.timeBudgetMs), allowWrites);
  return createMcpServer({ tools: catalogSource(new ToolCatalog(options.endpoints ?? registry)), allowWrites, session: async () => session, clock: engine.core.clock });
}
