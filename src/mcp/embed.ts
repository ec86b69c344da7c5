import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Engine } from '../library/engine.ts';
import type { Endpoint } from '../reports/endpoint.ts';

export interface McpServerForOptions {
  readonly organizationId: string;
  readonly allowWrites?: boolean;
  readonly endpoints?: readonly Endpoint[];
}

/**
 * An MCP server over an opened engine, answering as one organization under the engine's time budget:
 * connect it to any transport of the SDK (`await server.connect(transport)`) to embed it in another
 * service. The SDK loads at the first call, so importing the server entry does not load it.
 */
export async function mcpServerFor(engine: Engine, options: McpServerForOptions): Promise<Server> {
  const [
    { endpoints: registry },
    { budgetGate },
    { createMcpServer },
    { engineSession },
    { ToolCatalog },
    { catalogSource },
  ] = await Promise.all([
    import('../registry.ts'),
    import('./call-gate.ts'),
    import('./create-mcp-server.ts'),
    import('./engine-session.ts'),
    import('./tool-catalog.ts'),
    import('./tool-source.ts'),
  ]);
  const allowWrites = options.allowWrites === true;
  const session = engineSession(
    engine,
    options.organizationId,
    budgetGate(engine.core.limits.timeBudgetMs),
    allowWrites,
  );
  return createMcpServer({
    tools: catalogSource(new ToolCatalog(options.endpoints ?? registry)),
    allowWrites,
    session: async () => session,
    clock: engine.core.clock,
  });
}
