import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Engine } from '../engine/engine.ts';
import { dataUnavailable } from '../engine/database-errors.ts';
import { AuthError, EngineError, RateLimitError, StreamLimitError, ValidationError } from '../errors.ts';
import type { Endpoint, EndpointInput } from '../reports/endpoint.ts';
import { endpoints as registry, pathExists } from '../reports/registry.ts';
import { ApiKeys, type Principal } from '../state/api-keys.ts';
import { bodyLimit, NonJsonBody, registerBodyParsers } from './body-parsers.ts';
import { registerDocsPage } from './docs-page.ts';
import { applyLifecycle } from './lifecycle.ts';
import { openApiDocument } from './openapi.ts';
import { defaultRateLimit, maxClientWaitSeconds, RateLimiter, type RateLimitOptions, type RateState } from './rate-limit.ts';
import { sendSse } from './sse.ts';
import { encodeJson } from '../formats/json.ts';
import { encodeRows, rowsFor } from '../formats/encode.ts';
import { chooseFormat, sendRows } from './send-rows.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
    rate?: RateState;
  }
  interface FastifyContextConfig {
    public?: boolean;
  }
}

export interface ServerOptions {
  readonly engine: Engine;
  /** Defaults to the engine's clock, so reports, key expiry, rate windows and sunsets agree. */
  readonly clock?: () => Date;
  /** 600 requests per hour per key by default; `false` disables limiting (benchmarks). */
  readonly rateLimit?: RateLimitOptions | false;
  /** Idle time before an SSE comment keep-alive. */
  readonly keepAliveMs?: number;
  /** Concurrent streams per key (default 4) and the longest a stream may stay open (default 600 s). */
  readonly streams?: { readonly perKey: number; readonly maxSeconds: number };
  readonly endpoints?: readonly Endpoint[];
}

const version = '0.1.0';

function presentedKey(request: FastifyRequest): string | undefined {
  const header = request.headers['x-api-key'];
  const key = Array.isArray(header) ? header[0] : header;
  if (key) return key;
  const auth = request.headers.authorization;
  const m = auth ? /^Bearer\s+(.+)$/i.exec(auth) : null;
  return m?.[1]?.trim();
}

function inputOf(endpoint: Endpoint, request: FastifyRequest): EndpointInput {
  let body: unknown = request.body;
  if (body instanceof NonJsonBody) {
    if (endpoint.schemas.body) {
      throw new ValidationError([{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: body.text }]);
    }
    body = undefined;
  }
  return { body, query: request.query as EndpointInput['query'], params: request.params as Record<string, string> };
}

/**
 * The REST service as a Fastify plugin: every route comes from the endpoint registry. Register it in
 * another Fastify app (optionally under a prefix) or use `createServer`.
 */
export const analyticsApi: FastifyPluginAsync<ServerOptions> = async (app, options) => {
  const engine = options.engine;
  const clock = options.clock ?? engine.core.clock;
  const keys = ApiKeys.of(engine.core.state);
  const limiter = options.rateLimit === false ? undefined : new RateLimiter(options.rateLimit ?? defaultRateLimit);
  const endpoints = options.endpoints ?? registry;
  const openapi = openApiDocument(endpoints, { version });
  const streamLimits = options.streams ?? { perKey: 4, maxSeconds: 600 };
  const openStreams = new Map<string, number>();

  const holdStream = async (keyId: string, send: () => Promise<void>): Promise<void> => {
    openStreams.set(keyId, (openStreams.get(keyId) ?? 0) + 1);
    try {
      await send();
    } finally {
      const left = (openStreams.get(keyId) ?? 1) - 1;
      if (left > 0) openStreams.set(keyId, left);
      else openStreams.delete(keyId);
    }
  };

  registerBodyParsers(app);
  app.decorateRequest('principal', undefined);
  app.decorateRequest('rate', undefined);

  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config?.public || !request.routeOptions.url) return;
    const now = clock();
    const presented = presentedKey(request);
    const principal = presented ? await keys.verify(presented, now) : undefined;
    if (limiter) {
      const rate = limiter.hit(principal ? `key:${principal.keyId}` : `addr:${request.ip}`, now);
      request.rate = rate;
      reply.header('x-ratelimit-limit', rate.limit).header('x-ratelimit-remaining', rate.remaining).header('x-ratelimit-reset', rate.reset);
      if (!rate.allowed) throw new RateLimitError(rate.retryAfter);
    }
    if (!principal) throw new AuthError(presented ? 'Invalid, expired or revoked API key' : 'Missing API key: send it in the X-API-Key header');
    request.principal = principal;
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (error instanceof RateLimitError) {
      reply.header('retry-after', error.retryAfterSeconds);
      if (error.retryAfterSeconds > maxClientWaitSeconds) reply.header('x-should-retry', 'false');
    }
    if (error instanceof EngineError) return reply.code(error.status).type('application/json; charset=utf-8').send(error.body());
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(413).send({ detail: `Request body is larger than ${bodyLimit} bytes`, code: 'payload_too_large' });
    }
    const unavailable = dataUnavailable(error);
    if (unavailable) {
      request.log.error({ err: error }, 'dataset unreadable');
      return reply.code(503).header('retry-after', 30).send(unavailable.body());
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.code(error.statusCode).send({ detail: error.message, code: 'bad_request' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ detail: 'Internal Server Error', code: 'internal_error' });
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const known = pathExists(path.slice(app.prefix.length));
    return reply.code(known ? 405 : 404).send(known ? { detail: 'Method Not Allowed', code: 'method_not_allowed' } : { detail: 'Not Found', code: 'not_found' });
  });

  app.get('/openapi.json', { config: { public: true } }, async () => openapi);
  app.get('/healthz', { config: { public: true } }, async () => ({ status: 'ok', active_streams: engine.core.stats.activeStreams, busy_connections: engine.core.pool.active }));
  registerDocsPage(app);

  for (const endpoint of endpoints) {
    app.route({
      method: endpoint.method,
      url: endpoint.path.replace(/\{([a-z_]+)\}/g, ':$1'),
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const principal = request.principal!;
        const now = clock();
        applyLifecycle(endpoint, reply, principal, now);
        const abort = new AbortController();
        const ctx = { ...engine.org(principal.organizationId).context(abort.signal), now };
        const format = chooseFormat(endpoint, request, reply);
        const open = openStreams.get(principal.keyId) ?? 0;
        if (endpoint.stream && open >= streamLimits.perKey) throw new StreamLimitError(streamLimits.perKey);
        const handled = await endpoint.handle(inputOf(endpoint, request), ctx);
        const sending = { maxMs: streamLimits.maxSeconds * 1000, onError: (error: unknown) => request.log.error({ err: error }, 'stream failed midway') };
        if (format !== 'json') {
          const body = encodeRows(rowsFor(handled, format, endpoint.path), format, { duckdb: engine.core.pool });
          const send = () => sendRows(reply, format, endpoint.stream, body, abort, sending);
          await (endpoint.stream ? holdStream(principal.keyId, send) : send());
          return reply;
        }
        const result = await encodeJson(handled);
        if (result.kind === 'json') return reply.code(result.status).type('application/json; charset=utf-8').send(result.json);
        await holdStream(principal.keyId, () => sendSse(reply, result.events, abort, { ...sending, keepAliveMs: options.keepAliveMs ?? 15_000 }));
        return reply;
      },
    });
  }
};

/** A standalone server; `listen` it, or `inject` requests in tests. */
export async function createServer(options: ServerOptions & { logger?: boolean }): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ? { redact: ['req.headers["x-api-key"]', 'req.headers.authorization'] } : false,
    bodyLimit,
    forceCloseConnections: true,
    clientErrorHandler: (error: Error & { code?: string }, socket) => {
      const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
      const body = JSON.stringify(status === 431 ? { detail: 'Request header fields (or the URL) are too large', code: 'header_too_large' } : { detail: 'Malformed HTTP request', code: 'bad_request' });
      if (socket.writable) socket.end(`HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      else socket.destroy(error);
    },
  });
  await app.register(analyticsApi, options);
  return app;
}
