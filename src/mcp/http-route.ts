import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { withBudget } from '../engine/budget.ts';
import type { Engine } from '../engine/engine.ts';
import type { KeyedSlots } from '../engine/slots.ts';
import { CallAbortedError, HeavyLimitError, ServerBusyError } from '../errors.ts';
import { weightOf, type Endpoint } from '../reports/endpoint.ts';
import type { CallGate } from './call-gate.ts';
import { createMcpServer } from './create-mcp-server.ts';
import { engineSession } from './engine-session.ts';
import { ToolCatalog } from './tool-catalog.ts';
import { catalogSource } from './tool-source.ts';

export interface McpRouteOptions {
  readonly engine: Engine;
  readonly endpoints: readonly Endpoint[];
  readonly clock: () => Date;
  readonly heavyOfKey: KeyedSlots;
  readonly timeBudgetMs: number;
  readonly allowWrites: boolean;
}

/**
 * The gate of one HTTP request: the REST route's admission for the operation (the key's heavy
 * requests, the process's stream slots for a stream) and its time budget, under the request's signal.
 */
function requestGate(options: McpRouteOptions, keyId: string, signal: AbortSignal): CallGate {
  return {
    async run(endpoint, work) {
      const release = weightOf(endpoint) === 'heavy' ? options.heavyOfKey.take(keyId) : () => undefined;
      if (!release) throw new HeavyLimitError(options.heavyOfKey.max);
      const slot = endpoint.stream ? options.engine.core.streams.take() : () => undefined;
      if (!slot) {
        release();
        throw new ServerBusyError(options.engine.core.streams.max);
      }
      try {
        return await withBudget(options.timeBudgetMs, signal, work);
      } finally {
        slot();
        release();
      }
    },
  };
}

/**
 * `POST /mcp`: MCP over Streamable HTTP, stateless (each request stands alone, answered as JSON). The
 * analytics plugin's hook has already authenticated the key and counted the request against its rate
 * limit, as for any REST route; the tools answer as the key's organization.
 */
export function registerMcpRoute(app: FastifyInstance, options: McpRouteOptions): void {
  const tools = catalogSource(new ToolCatalog(options.endpoints));
  app.post('/mcp', async (request, reply) => {
    const principal = request.principal!;
    const caller = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) caller.abort(new CallAbortedError('The client disconnected before the answer was ready'));
    });
    const session = engineSession(options.engine, principal.organizationId, requestGate(options, principal.keyId, caller.signal), options.allowWrites);
    const server = createMcpServer({ tools, allowWrites: options.allowWrites, session: async () => session, clock: options.clock });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.raw.on('close', () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    // The transport writes the response itself: the headers the hooks set (X-RateLimit-*) go onto it first.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    reply.hijack();
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });
  const notAllowed = { detail: 'MCP here is stateless: POST JSON-RPC messages to /mcp', code: 'method_not_allowed' };
  app.get('/mcp', async (_request, reply) => reply.code(405).header('allow', 'POST').send(notAllowed));
  app.delete('/mcp', async (_request, reply) => reply.code(405).header('allow', 'POST').send(notAllowed));
}
