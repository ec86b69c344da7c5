import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Engine } from '../library/engine.ts';
import { budgetGate } from './call-gate.ts';
import { createMcpServer } from './create-mcp-server.ts';
import { engineSession } from './engine-session.ts';
import type { ToolCatalog } from './tool-catalog.ts';
import { manifestSource, type ToolSource } from './tool-source.ts';
import type { ToolSession } from './tool-call.ts';

export interface StdioOptions {
  /** The registry's tools, loaded (with the engine's modules) while the client already lists them from the manifest. */
  readonly loadCatalog: () => Promise<ToolCatalog>;
  /** Opens the engine and says which organization to answer as. */
  readonly open: () => Promise<{ engine: Engine; organizationId: string }>;
  readonly allowWrites: boolean;
  readonly clock: () => Date;
}

/** How long after connecting the engine opens if the client has neither listed tools nor called one. */
const openAfterMs = 2000;

/**
 * Serves MCP on standard input and output until the client closes it. The transport starts before the
 * dataset is open and the tool list comes from the manifest, so a client lists tools before the
 * registry and the engine load; they load right after that answer is written (loading them holds the
 * event loop), or at the first call, or after two seconds. A tool call waits for the engine.
 */
export async function serveStdio(
  options: StdioOptions,
  stopped: Promise<void>,
): Promise<{ opened: Promise<Engine | undefined> }> {
  let session: Promise<ToolSession> | undefined;
  let opening: Promise<{ engine: Engine; organizationId: string }> | undefined;
  const begin = () => {
    if (!session) {
      opening = options.open();
      session = Promise.all([opening, options.loadCatalog()]).then(([{ engine, organizationId }]) =>
        engineSession(engine, organizationId, budgetGate(engine.core.limits.timeBudgetMs), options.allowWrites),
      );
      // A failed open is reported on each call; this keeps it from also being an unhandled rejection.
      session.catch(() => undefined);
    }
    return session;
  };
  const timer = setTimeout(begin, openAfterMs);
  const source = manifestSource(options.loadCatalog);
  const tools: ToolSource = {
    listing: async () => {
      const listed = await source.listing();
      setTimeout(begin, 0);
      return listed;
    },
    tool: async (name) => {
      await begin().catch(() => undefined);
      return source.tool(name);
    },
  };
  const server = createMcpServer({ tools, allowWrites: options.allowWrites, session: begin, clock: options.clock });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await Promise.race([closed, stopped]);
  clearTimeout(timer);
  await server.close();
  return {
    opened: opening
      ? opening.then(
          (o) => o.engine,
          () => undefined,
        )
      : Promise.resolve(undefined),
  };
}
