import type { FastifyReply } from 'fastify';
import type { StreamEvent } from '../query/rows-result.ts';
import { sseKeepAlive, sseText, type SsePiece } from '../formats/sse-text.ts';
import { firstPiece } from './first-piece.ts';

export interface SseOptions {
  readonly keepAliveMs: number;
  /** A stream open longer than this is cut (the socket is destroyed, so the client sees it incomplete). */
  readonly maxMs: number;
  readonly onError: (error: unknown) => void;
  /** The longest the first event may take (0: no bound); past it a 503 (see `firstPiece`). */
  readonly firstRowMs: number;
}

/**
 * Writes a stream as Server-Sent Events, a batch of rows per write when the stream offers its SSE text
 * (`sseText`), else an event per write. Headers (rate-limit ones included) go out with the first event,
 * so a failure before it is answered with its status (`firstPiece`); writes wait for `drain`; keep-alives are comment lines. If the client goes away the caller's
 * abort signal stops the query. If the stream fails midway the socket is destroyed, so no client can
 * mistake a truncated stream for a complete one.
 */
export async function sendSse(
  reply: FastifyReply,
  events: AsyncIterable<StreamEvent>,
  abort: AbortController,
  options: SseOptions,
): Promise<void> {
  const iterator = sseText(events);
  let first: IteratorResult<SsePiece>;
  try {
    first = await firstPiece(iterator, abort, options.firstRowMs);
  } catch (error) {
    await iterator.return(undefined).catch(() => undefined);
    throw error;
  }
  const res = reply.raw;
  reply.hijack();
  const headers: Record<string, string | number | string[]> = {};
  for (const [k, v] of Object.entries(reply.getHeaders()))
    if (v !== undefined) headers[k] = v as string | number | string[];
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
    connection: 'keep-alive',
  });
  res.flushHeaders();
  const onClose = () => {
    if (!res.writableFinished) abort.abort();
  };
  res.on('close', onClose);
  let lastWrite = Date.now();
  const keepAlive = setInterval(
    () => {
      if (Date.now() - lastWrite >= options.keepAliveMs && !res.destroyed) {
        res.write(sseKeepAlive);
        lastWrite = Date.now();
      }
    },
    Math.max(10, Math.floor(options.keepAliveMs / 2)),
  );
  const deadline = setTimeout(() => {
    abort.abort();
    res.destroy(new Error(`stream exceeded ${options.maxMs} ms`));
  }, options.maxMs);
  try {
    for (let next = first; ; next = await iterator.next()) {
      if (next.done || abort.signal.aborted) break;
      lastWrite = Date.now();
      if (!res.write(next.value.text)) {
        await drainOrClose(res);
      }
    }
    if (!abort.signal.aborted) res.end();
  } catch (error) {
    if (!abort.signal.aborted) options.onError(error);
    res.destroy(error as Error);
  } finally {
    clearTimeout(deadline);
    clearInterval(keepAlive);
    res.off('close', onClose);
    await iterator.return(undefined);
  }
}

/** Resolves on `drain` or `close`, and leaves no listener behind: a slow client waits here once per batch. */
export function drainOrClose(res: NodeJS.WritableStream & { destroyed: boolean }): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
