import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { McpRouteOptions } from './route-options.ts';

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * `POST /mcp`: MCP over Streamable HTTP, stateless (each request stands alone, answered as JSON). The
 * analytics plugin's hook has already authenticated the key and counted the request against its rate
 * limit, as for any REST route; the tools answer as the key's organization. The SDK loads at the first
 * request, so a server that is never asked for MCP never loads it.
 */
export function registerMcpRoute(app: FastifyInstance, options: McpRouteOptions): void {
  let handler: Promise<Handler> | undefined;
  app.post('/mcp', async (request, reply) => {
    handler ??= import('./http-session.ts').then((m) => m.mcpHandler(options));
    await (
      await handler
    )(request, reply);
  });
  const notAllowed = { detail: 'MCP here is stateless: POST JSON-RPC messages to /mcp', code: 'method_not_allowed' };
  app.get('/mcp', async (_request, reply) => reply.code(405).header('allow', 'POST').send(notAllowed));
  app.delete('/mcp', async (_request, reply) => reply.code(405).header('allow', 'POST').send(notAllowed));
}
