import { requireTables } from '../engine/operation-tables.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { withBudget } from '../engine/budget.ts';
import type { Engine } from '../library/engine.ts';
import type { KeyedSlots } from '../engine/slots.ts';
import { CallAbortedError, HeavyLimitError, ServerBusyError, StreamLimitError, ValidationError } from '../errors.ts';
import { encodeJson } from '../formats/json.ts';
import { weightOf, type Endpoint, type EndpointInput, type EndpointResult } from '../reports/endpoint.ts';
import { encodeRows, rowsFor } from '../formats/encode.ts';
import { chooseFormat, sendRows, type SendOptions } from './send-rows.ts';
import { withoutFormat } from '../formats/format-param.ts';
import type { TableFormat } from '../formats/format-names.ts';
import { NonJsonBody } from './body-parsers.ts';
import { applyLifecycle } from './lifecycle.ts';
import { sendSse } from './sse.ts';
import { takeCsvRaw } from './csv-raw.ts';
import { etagOf, ifNoneMatchTags } from '../reports/extensions/fingerprint.ts';

/** Sends the ETag of an answer's fingerprint; true when the answer is a 304 (the caller's copy is current), sent here. */
function conditional(reply: FastifyReply, handled: EndpointResult): boolean {
  if (handled.fingerprint === undefined) return false;
  reply.header('etag', etagOf(handled.fingerprint));
  if (handled.kind !== 'json' || handled.status !== 304) return false;
  reply.code(304).send();
  return true;
}

export interface HandlerDeps {
  readonly engine: Engine;
  readonly clock: () => Date;
  readonly streamsOfKey: KeyedSlots;
  readonly heavyOfKey: KeyedSlots;
  readonly timeBudgetMs: number;
  readonly streamSeconds: number;
  /** The longest an answer sent piece by piece may take to its first piece (0: no bound). */
  readonly firstRowMs: number;
  readonly keepAliveMs: number;
}

function inputOf(
  endpoint: Endpoint,
  request: FastifyRequest,
  format: TableFormat | 'json',
  query: EndpointInput['query'],
): EndpointInput {
  let body: unknown = request.body;
  if (body instanceof NonJsonBody) {
    if (endpoint.schemas.body) {
      throw new ValidationError([
        {
          type: 'model_attributes_type',
          loc: ['body'],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: body.text,
        },
      ]);
    }
    body = undefined;
  }
  const conditional =
    endpoint.group === 'reports' ? { format, ifNoneMatch: ifNoneMatchTags(request.headers['if-none-match']) } : {};
  const rest = endpoint.group === 'reports' ? withoutFormat(query) : query;
  return {
    body,
    query: rest as EndpointInput['query'],
    params: request.params as Record<string, string>,
    ...conditional,
  };
}

/** How an answer sent piece by piece (a stream, a table format) is bounded, and where its failure midway is logged. */
function sendingOf(deps: HandlerDeps, request: FastifyRequest): SendOptions {
  return {
    maxMs: deps.streamSeconds * 1000,
    firstRowMs: deps.firstRowMs,
    onError: (error: unknown) => request.log.error({ err: error }, 'stream failed midway'),
  };
}

interface Call {
  readonly endpoint: Endpoint;
  readonly deps: HandlerDeps;
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly caller: Caller;
  readonly csvRaw: boolean;
}

function sendTable(call: Call, handled: EndpointResult, table: TableFormat): Promise<void> {
  const { endpoint, deps, reply, caller, csvRaw } = call;
  const core = deps.engine.core;
  return sendRows(
    reply,
    table,
    endpoint.stream,
    encodeRows(rowsFor(handled, table, endpoint.path), table, { duckdb: core.pool, tempDisk: core.tempDisk, csvRaw }),
    caller,
    sendingOf(deps, call.request),
  );
}

/**
 * The route of one endpoint: admission (a key's streams and heavy requests, the process's stream
 * slots), then the call under the request's signal, which aborts when the client goes away or, for a
 * request that is not a stream, when its time budget runs out. The budget covers the call and its
 * JSON text together, under one timer.
 */
export function endpointHandler(endpoint: Endpoint, deps: HandlerDeps) {
  const { engine } = deps;
  const heavy = weightOf(endpoint) === 'heavy';
  const noRelease = () => undefined;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const principal = request.principal!;
    const now = deps.clock();
    applyLifecycle(endpoint, reply, principal, now);
    requireTables(endpoint.path, engine.core.missingTables);
    const format = chooseFormat(endpoint, request, reply);
    const { query, csvRaw } =
      endpoint.group === 'reports'
        ? takeCsvRaw(request.query as EndpointInput['query'])
        : { query: request.query as EndpointInput['query'], csvRaw: false };
    const input = inputOf(endpoint, request, format, query);
    const caller = callerOf(reply);
    const call: Call = { endpoint, deps, request, reply, caller, csvRaw };
    const scope = engine.org(principal.organizationId);
    try {
      if (endpoint.stream) {
        const releaseKey = deps.streamsOfKey.take(principal.keyId);
        if (!releaseKey) throw new StreamLimitError(deps.streamsOfKey.max);
        const release = engine.core.streams.take();
        if (!release) {
          releaseKey();
          throw new ServerBusyError(engine.core.streams.max);
        }
        try {
          const handled = await endpoint
            .handle(input, { ...scope.context(caller.signal), now })
            .catch((error: unknown) => {
              throw caller.signal.aborted ? caller.signal.reason : error;
            });
          if (conditional(reply, handled)) return reply;
          if (format !== 'json') {
            await sendTable(call, handled, format);
            return reply;
          }
          const result = await encodeJson(handled);
          if (result.kind === 'json')
            return reply.code(result.status).type('application/json; charset=utf-8').send(result.json);
          await sendSse(reply, result.events, caller, { ...sendingOf(deps, request), keepAliveMs: deps.keepAliveMs });
          return reply;
        } finally {
          release();
          releaseKey();
        }
      }
      const release = heavy ? deps.heavyOfKey.take(principal.keyId) : noRelease;
      if (!release) throw new HeavyLimitError(deps.heavyOfKey.max);
      try {
        const { handled, result } = await withBudget(deps.timeBudgetMs, caller.signal, async (signal) => {
          const answer = await endpoint.handle(input, { ...scope.context(signal), now });
          return { handled: answer, result: format === 'json' ? await encodeJson(answer) : undefined };
        });
        if (conditional(reply, handled)) return reply;
        if (format !== 'json') {
          await sendTable(call, handled, format);
          return reply;
        }
        if (result?.kind !== 'json') throw new Error(`${endpoint.path} answered a stream`);
        return reply.code(result.status).type('application/json; charset=utf-8').send(result.json);
      } finally {
        release();
      }
    } finally {
      reply.raw.off('close', caller.onClose);
    }
  };
}

/**
 * Aborts when the client goes away before its answer is written, so its statement is interrupted,
 * on every request, not only streams.
 */
type Caller = AbortController & { onClose: () => void };

function callerOf(reply: FastifyReply): Caller {
  const caller = Object.assign(new AbortController(), { onClose: () => undefined as void });
  caller.onClose = () => {
    if (!reply.raw.writableFinished)
      caller.abort(new CallAbortedError('The client disconnected before the answer was ready'));
  };
  reply.raw.on('close', caller.onClose);
  if (reply.raw.destroyed || reply.raw.socket?.destroyed) caller.onClose();
  return caller;
}
