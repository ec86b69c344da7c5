import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { withBudget } from '../engine/budget.ts';
import { CallAbortedError, HeavyLimitError, ServerBusyError } from '../errors.ts';
import { weightOf } from '../reports/endpoint.ts';
import type { CallGate } from './call-gate.ts';
import { createMcpServer } from './create-mcp-server.ts';
import { engineSession } from './engine-session.ts';
import { ToolCatalog } from './tool-catalog.ts';
import { catalogSource } from './tool-source.ts';
import type { McpRouteOptions } from './route-options.ts';

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
 * Answers one `POST /mcp`: a stateless MCP server and Streamable HTTP transport for this request, as the
 * key's organization, under the REST route's admission and time budget.
 */
export function mcpHandler(options: McpRouteOptions) {
  const tools = catalogSource(new ToolCatalog(options.endpoints));
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const principal = request.principal!;
    const caller = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished)
        caller.abort(new CallAbortedError('The client disconnected before the answer was ready'));
    });
    const session = engineSession(
      options.engine,
      principal.organizationId,
      requestGate(options, principal.keyId, caller.signal),
      options.allowWrites,
    );
    const server = createMcpServer({
      tools,
      allowWrites: options.allowWrites,
      session: async () => session,
      clock: options.clock,
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.raw.on('close', () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    // The transport writes the response itself: the headers the hooks set (X-RateLimit-*) go onto it first.
    for (const [name, value] of Object.entries(reply.getHeaders()))
      if (value !== undefined) reply.raw.setHeader(name, value);
    reply.hijack();
    await transport.handleRequest(request.raw, reply.raw, request.body);
  };
}
