import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../src/library/engine.ts';
import { createServer, type ServerOptions } from '../../src/http/create-server.ts';
import { ApiKeys } from '../../src/state/api-keys.ts';

export interface TestServer {
  readonly app: FastifyInstance;
  readonly url: string;
  readonly keys: ApiKeys;
  key(organizationId: string, expiresOn?: string): Promise<string>;
  close(): Promise<void>;
}

/** A real server on a loopback port, for tests that must cross a socket. */
export async function startServer(engine: Engine, options: Omit<ServerOptions, 'engine'> = {}): Promise<TestServer> {
  const app = await createServer({ engine, ...options });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const keys = ApiKeys.of(engine.core.state);
  return {
    app,
    url: address,
    keys,
    key: async (organizationId, expiresOn = '2099-12-31') =>
      (await keys.create({ organizationId, name: 'test key', expiresOn, now: engine.core.clock() })).key,
    close: () => app.close(),
  };
}

export function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Parses a text/event-stream body into events. */
export function parseSse(text: string): { event: string; data: string }[] {
  return text
    .split('\n\n')
    .filter((block) => block.split('\n').some((l) => l.startsWith('data:')))
    .map((block) => {
      const lines = block.split('\n');
      return {
        event: lines.find((l) => l.startsWith('event:'))?.slice(7) ?? 'message',
        data: lines
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(6))
          .join('\n'),
      };
    });
}
