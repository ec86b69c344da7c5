import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyRequest } from 'fastify';
import type { Engine } from '../library/engine.ts';
import { dataUnavailable } from '../engine/database-errors.ts';
import { AuthError, EngineError, InternalError, MissingTableError, RateLimitError } from '../errors.ts';
import type { Endpoint } from '../reports/endpoint.ts';
import { endpoints as registry, pathExists } from '../registry.ts';
import { ApiKeys, type Principal } from '../state/api-keys.ts';
import { bodyLimit, registerBodyParsers } from './body-parsers.ts';
import { endpointHandler } from './endpoint-handler.ts';
import { registerDocsPage } from './docs-page.ts';
import { openApiDocument } from './openapi.ts';
import { defaultRateLimit, RateLimiter, type RateLimitOptions, type RateState } from './rate-limit.ts';
import {
  defaultFailedAuthLimit,
  defaultFirstRowSeconds,
  defaultHeavyPerKey,
  defaultStreamSeconds,
  defaultStreamsPerKey,
} from '../limits.ts';
import { KeyedSlots } from '../engine/slots.ts';
import { RateWindowStore } from '../state/rate-windows.ts';
import { registerMcpRoute } from '../mcp/http-route.ts';

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
  /**
   * 600 requests per hour per key by default; `false` disables limiting (benchmarks). Windows are kept
   * in the state store, so a restart does not reset them.
   */
  readonly rateLimit?: RateLimitOptions | false;
  /**
   * Requests per window per client address without a valid key: the per-key limit's when it is on,
   * else 600 an hour; `false` disables it (with `rateLimit: false`, for benchmarks).
   */
  readonly failedAuthLimit?: RateLimitOptions | false;
  /** Idle time before an SSE comment keep-alive. */
  readonly keepAliveMs?: number;
  /**
   * Concurrent streams per key (default 4) and the longest a stream may stay open (default 600 s). The
   * bound on streams in the whole process is the engine's `maxStreams`. `firstRowSeconds` (default 120;
   * 0: none): the longest a stream or a table-format answer may take to its first piece before it is
   * stopped with a 503; its status and headers wait for that piece.
   */
  readonly streams?: { readonly perKey?: number; readonly maxSeconds?: number; readonly firstRowSeconds?: number };
  /** Heavy requests (reports) one key may have running at once (default 2; 0: no bound). */
  readonly heavyPerKey?: number;
  /** How long a request (not a stream) may run before it is stopped with a 503; 0: none. Default: the engine's. */
  readonly timeBudgetMs?: number;
  readonly endpoints?: readonly Endpoint[];
  /** `/mcp` (docs/mcp.md): on by default, read tools only; `allowWrites` offers the tools that change data; `false` turns it off. */
  readonly mcp?: { readonly allowWrites?: boolean } | false;
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

/**
 * The REST service as a Fastify plugin: every route comes from the endpoint registry. Register it in
 * another Fastify app (optionally under a prefix) or use `createServer`.
 */
export const analyticsApi: FastifyPluginAsync<ServerOptions> = async (app, options) => {
  const engine = options.engine;
  const clock = options.clock ?? engine.core.clock;
  const keys = ApiKeys.of(engine.core.state);
  const limiter =
    options.rateLimit === false
      ? undefined
      : await RateLimiter.open(
          options.rateLimit ?? defaultRateLimit,
          clock,
          new RateWindowStore(engine.core.state),
          'key:',
        );
  const failedAuth =
    options.failedAuthLimit ??
    (options.rateLimit === false ? defaultFailedAuthLimit : (options.rateLimit ?? defaultRateLimit));
  const addressLimiter =
    failedAuth === false
      ? undefined
      : await RateLimiter.open(failedAuth, clock, new RateWindowStore(engine.core.state), 'addr:');
  const endpoints = options.endpoints ?? registry;
  const openapi = JSON.stringify(openApiDocument(endpoints, { version }));
  const streamLimits = {
    perKey: options.streams?.perKey ?? defaultStreamsPerKey,
    maxSeconds: options.streams?.maxSeconds ?? defaultStreamSeconds,
  };
  const streamsOfKey = new KeyedSlots(streamLimits.perKey);
  const heavyOfKey = new KeyedSlots(options.heavyPerKey ?? defaultHeavyPerKey);
  const timeBudgetMs = options.timeBudgetMs ?? engine.core.limits.timeBudgetMs;
  // Verifying a key then never waits for DuckDB: the keys are in memory from the start.
  await keys.list();
  for (const l of [limiter, addressLimiter])
    if (l)
      app.addHook('onClose', async () =>
        l.close().catch((error: unknown) => app.log.error({ err: error }, 'rate-limit windows not saved')),
      );

  registerBodyParsers(app);
  app.decorateRequest('principal', undefined);
  app.decorateRequest('rate', undefined);

  app.addHook('onRequest', async (request, reply) => {
    // Fastify builds `routeOptions` anew on every read.
    const route = request.routeOptions;
    if (route.config?.public) return;
    const now = clock();
    const presented = presentedKey(request);
    const principal = presented ? await keys.verify(presented, now) : undefined;
    const meter = principal ? limiter : addressLimiter;
    if (meter) {
      const rate = meter.hit(principal ? `key:${principal.keyId}` : `addr:${request.ip}`, now);
      request.rate = rate;
      reply
        .header('x-ratelimit-limit', rate.limit)
        .header('x-ratelimit-remaining', rate.remaining)
        .header('x-ratelimit-reset', rate.reset);
      if (rate.firstRefusal)
        await meter
          .flush()
          .catch((error: unknown) => request.log.error({ err: error }, 'rate-limit windows not saved'));
      if (!rate.allowed) throw new RateLimitError(rate.retryAfter);
    }
    // An unrouted path is a 404 (or 405) whoever asks; it is metered and carries the rate headers like any other response.
    if (!route.url) return;
    if (!principal)
      throw new AuthError(
        presented ? 'Invalid, expired or revoked API key' : 'Missing API key: send it in the X-API-Key header',
      );
    request.principal = principal;
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (error instanceof MissingTableError) reply.header('x-should-retry', 'false');
    if (error instanceof EngineError)
      return reply
        .code(error.status)
        .headers(error.headers())
        .type('application/json; charset=utf-8')
        .send(error.body());
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply
        .code(413)
        .send({ detail: `Request body is larger than ${bodyLimit} bytes`, code: 'payload_too_large' });
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
    return reply.code(500).send(new InternalError().body());
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const known = pathExists(path.slice(app.prefix.length));
    return reply
      .code(known ? 405 : 404)
      .send(
        known
          ? { detail: 'Method Not Allowed', code: 'method_not_allowed' }
          : { detail: 'Not Found', code: 'not_found' },
      );
  });

  app.get('/openapi.json', { config: { public: true } }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(openapi),
  );
  app.get('/healthz', { config: { public: true } }, async () => ({
    status: 'ok',
    active_streams: engine.core.stats.activeStreams,
    busy_connections: engine.core.pool.active,
  }));
  await registerDocsPage(app);

  for (const endpoint of endpoints) {
    app.route({
      method: endpoint.method,
      url: endpoint.path.replace(/\{([a-z_]+)\}/g, ':$1'),
      handler: endpointHandler(endpoint, {
        engine,
        clock,
        streamsOfKey,
        heavyOfKey,
        timeBudgetMs,
        streamSeconds: streamLimits.maxSeconds,
        firstRowMs: (options.streams?.firstRowSeconds ?? defaultFirstRowSeconds) * 1000,
        keepAliveMs: options.keepAliveMs ?? 15_000,
      }),
    });
  }
  if (options.mcp !== false)
    registerMcpRoute(app, {
      engine,
      endpoints,
      clock,
      heavyOfKey,
      timeBudgetMs,
      allowWrites: options.mcp?.allowWrites === true,
    });
};

/** A standalone server; `listen` it, or `inject` requests in tests. */
export async function createServer(options: ServerOptions & { logger?: boolean }): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ? { redact: ['req.headers["x-api-key"]', 'req.headers.authorization'] } : false,
    bodyLimit,
    forceCloseConnections: true,
    clientErrorHandler: (error: Error & { code?: string }, socket) => {
      const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
      const body = JSON.stringify(
        status === 431
          ? { detail: 'Request header fields (or the URL) are too large', code: 'header_too_large' }
          : { detail: 'Malformed HTTP request', code: 'bad_request' },
      );
      if (socket.writable)
        socket.end(
          `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
      else socket.destroy(error);
    },
  });
  await app.register(analyticsApi, options);
  return app;
}
