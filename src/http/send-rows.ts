import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotAcceptableError } from '../errors.ts';
import { negotiate } from '../formats/accept.ts';
import { requestedFormat } from '../formats/format-param.ts';
import { contentType, formats, type FormatName } from '../formats/format-names.ts';
import type { Encoded } from '../formats/encode.ts';
import type { Endpoint } from '../reports/endpoint.ts';
import { drainOrClose } from './sse.ts';
import { firstPiece } from './first-piece.ts';

const tableMediaTypes = Object.entries(formats)
  .filter(([name]) => name !== 'json')
  .map(([, f]) => f.mediaType);

const offered = (endpoint: Endpoint) =>
  endpoint.group !== 'reports'
    ? ['application/json']
    : [endpoint.stream ? 'text/event-stream' : 'application/json', ...tableMediaTypes];

/**
 * The format a request's Accept header (and on reports `?format=`) chooses, or a 406 naming what the
 * endpoint offers. Reports offer every format; other operations JSON only, refused before they run so
 * nothing changes.
 */
export function chooseFormat(endpoint: Endpoint, request: FastifyRequest, reply: FastifyReply): FormatName {
  if (endpoint.group === 'reports') reply.header('vary', 'Accept');
  const format =
    endpoint.group === 'reports'
      ? requestedFormat(request.query, request.headers.accept, endpoint.stream)
      : negotiate(request.headers.accept, endpoint.stream);
  if (format === null || (format !== 'json' && endpoint.group !== 'reports')) {
    throw new NotAcceptableError(
      `None of the media types in Accept is offered here; ${endpoint.path} answers ${offered(endpoint).join(', ')}`,
    );
  }
  return format;
}

export interface SendOptions {
  /** A response open longer than this is cut (the socket is destroyed, so the client sees it incomplete). */
  readonly maxMs: number;
  readonly onError: (error: unknown) => void;
  /** The longest the first piece may take (0: no bound); past it a 503 (see `firstPiece`). */
  readonly firstRowMs: number;
}

/**
 * Writes encoded rows as the response body, chunked. Headers (rate-limit ones included) go out with the
 * first piece, so a failure before it is answered with its status (`firstPiece`); each write waits for
 * `drain`, so the server holds one encoded slice per response. A client that goes away aborts the
 * query; a failure midway destroys the socket, so no client can take a truncated body for a whole one.
 */
export async function sendRows(
  reply: FastifyReply,
  format: FormatName,
  stream: boolean,
  body: Encoded,
  abort: AbortController,
  options: SendOptions,
): Promise<void> {
  let first: IteratorResult<string | Uint8Array>;
  try {
    first = await firstPiece(body, abort, options.firstRowMs);
  } catch (error) {
    await body.return(undefined).catch(() => undefined);
    throw error;
  }
  const res = reply.raw;
  reply.hijack();
  const headers: Record<string, string | number | string[]> = {};
  for (const [k, v] of Object.entries(reply.getHeaders()))
    if (v !== undefined) headers[k] = v as string | number | string[];
  res.writeHead(200, {
    ...headers,
    'content-type': contentType(format, stream),
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();
  const onClose = () => {
    if (!res.writableFinished) abort.abort();
  };
  res.on('close', onClose);
  const deadline = setTimeout(() => {
    abort.abort();
    res.destroy(new Error(`response exceeded ${options.maxMs} ms`));
  }, options.maxMs);
  try {
    for (let next = first; ; next = await body.next()) {
      if (next.done || abort.signal.aborted) break;
      if (!res.write(next.value)) await drainOrClose(res);
    }
    if (!abort.signal.aborted) res.end();
  } catch (error) {
    if (!abort.signal.aborted) options.onError(error);
    res.destroy(error as Error);
  } finally {
    clearTimeout(deadline);
    res.off('close', onClose);
    await body.return(undefined);
  }
}
