import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Engine } from '../engine/engine.ts';
import { budgetGate } from './call-gate.ts';
import { createMcpServer } from './create-mcp-server.ts';
import { engineSession } from './engine-session.ts';
import { ToolCatalog } from './tool-catalog.ts';
import type { Endpoint } from '../reports/endpoint.ts';

export interface StdioOptions {
  readonly endpoints: readonly Endpoint[];
  /** The engine and the organization to answer as, opened while the client already lists tools. */
  readonly opening: Promise<{ engine: Engine; organizationId: string }>;
  readonly allowWrites: boolean;
  readonly clock: () => Date;
}

/**
 * Serves MCP on standard input and output until the client closes it. The transport starts before the
 * dataset is open: listing tools, resources' names and prompts reads no data, and a tool call waits
 * for the engine.
 */
export async function serveStdio(options: StdioOptions, stopped: Promise<void>): Promise<void> {
  const session = options.opening.then(({ engine, organizationId }) => engineSession(engine, organizationId, budgetGate(engine.core.limits.timeBudgetMs), options.allowWrites));
  // A failed open is reported on each call; this keeps it from also being an unhandled rejection.
  session.catch(() => undefined);
  const server = createMcpServer({ catalog: new ToolCatalog(options.endpoints), allowWrites: options.allowWrites, session: () => session, clock: options.clock });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await Promise.race([closed, stopped]);
  await server.close();
}
