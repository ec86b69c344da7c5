import { loopTurn } from '../query/loop-turns.ts';
import type { ColumnBatch } from '../query/row-shape.ts';
import type { EndpointResult, RowsPart, RowsResult, StreamEvent } from '../query/rows-result.ts';
import { compileRows, rowReader } from '../query/row-json.ts';
import { formatSseEvent, type FramedEvents, type SsePiece } from './sse-text.ts';

export interface OpenedRows {
  readonly head: Record<string, unknown>;
  readonly batches: AsyncIterable<ColumnBatch>;
  /** Stops the read early, interrupting its query; safe to call after the end or twice. */
  close(): Promise<void>;
}

/** Starts a rows result: its head, then its batches. Iterate the batches to the end or call `close`. */
export async function openRows(result: RowsResult): Promise<OpenedRows> {
  const parts = result.read();
  const first = await parts.next();
  if (first.done || !('head' in first.value)) {
    await parts.return(undefined);
    throw new Error('a rows result must yield its head first');
  }
  return { head: first.value.head, batches: batchesOf(parts), close: async () => void (await parts.return(undefined)) };
}

async function* batchesOf(parts: AsyncGenerator<RowsPart>): AsyncGenerator<ColumnBatch> {
  for (;;) {
    const next = await parts.next();
    if (next.done) return;
    if ('batch' in next.value) yield next.value.batch;
  }
}

/** Rows encoded between two turns of the event loop: a large page never holds it for long. */
const rowsPerTurn = 2048;

/** Calls `each` for every row of a batch, `rowsPerTurn` rows at a time within the process's loop budget. */
async function eachRow(batch: ColumnBatch, each: (i: number) => void): Promise<void> {
  for (let from = 0; from < batch.length; from += rowsPerTurn) {
    if (from > 0) await loopTurn();
    const to = Math.min(batch.length, from + rowsPerTurn);
    for (let i = from; i < to; i++) each(i);
  }
}

const pageRows = { first: '', before: ',', after: '' };

/** The spec's page body, `{"info":…,"data":[…]}`, as text: one string per `rowsPerTurn` rows, joined once. */
export async function pageJson(result: RowsResult): Promise<string> {
  const { text } = compileRows(result.shape);
  const { head, batches, close } = await openRows(result);
  const pieces: string[] = [];
  try {
    for await (const batch of batches)
      for (let from = 0; from < batch.length; from += rowsPerTurn) {
        if (from > 0) await loopTurn();
        pieces.push(text(batch, pageRows, from, from + rowsPerTurn));
      }
  } finally {
    await close();
  }
  return `{"info":${JSON.stringify(head)},"data":[${pieces.join(',')}]}`;
}

/** The spec's page body as JS values: what `JSON.parse(await pageJson(result))` gives, without the text. */
export async function pageObject(result: RowsResult): Promise<{ info: Record<string, unknown>; data: unknown[] }> {
  const read = rowReader(result.shape);
  const { head, batches, close } = await openRows(result);
  const data: unknown[] = [];
  try {
    for await (const batch of batches) {
      const row = read(batch);
      await eachRow(batch, (i) => data.push(row(i)));
    }
  } finally {
    await close();
  }
  return { info: JSON.parse(JSON.stringify(head)) as Record<string, unknown>, data };
}

/**
 * The stream's events: `summary` with the head, then one `result` per row, a batch at a time within the
 * process's loop budget, so a long stream never holds the event loop.
 */
export async function* streamEvents(result: RowsResult): AsyncGenerator<StreamEvent> {
  const { head, batches, close } = await openRows(result);
  try {
    yield { event: 'summary', data: JSON.stringify(head) };
    const { texts } = compileRows(result.shape);
    for await (const batch of batches) {
      await loopTurn();
      for (const data of texts(batch)) yield { event: 'result', data };
    }
  } finally {
    await close();
  }
}

const resultEvents = { first: 'event: result\ndata: ', before: 'event: result\ndata: ', after: '\n\n' };

/**
 * The stream's events as SSE text: the `summary` event, then one piece per `rowsPerTurn` rows at most,
 * each the same bytes as `formatSseEvent` of its `result` events, each within the process's loop budget.
 */
export async function* streamSse(result: RowsResult): AsyncGenerator<SsePiece> {
  const { head, batches, close } = await openRows(result);
  try {
    yield { text: formatSseEvent({ event: 'summary', data: JSON.stringify(head) }), results: 0 };
    const { text } = compileRows(result.shape);
    for await (const batch of batches)
      for (let from = 0; from < batch.length; from += rowsPerTurn) {
        const to = Math.min(batch.length, from + rowsPerTurn);
        await loopTurn();
        yield { text: text(batch, resultEvents, from, to), results: to - from };
      }
  } finally {
    await close();
  }
}

/** A stream's events, readable one event at a time or as SSE text a batch at a time. */
export const framedEvents = (result: RowsResult): FramedEvents => ({
  [Symbol.asyncIterator]: () => streamEvents(result),
  sseText: () => streamSse(result),
});

/** The same events as JS values, for the library's iterators. */
export async function* streamObjects(
  result: RowsResult,
): AsyncGenerator<{ event: string; data: Record<string, unknown> }> {
  const { head, batches, close } = await openRows(result);
  try {
    yield { event: 'summary', data: JSON.parse(JSON.stringify(head)) as Record<string, unknown> };
    const read = rowReader(result.shape);
    for await (const batch of batches) {
      const row = read(batch);
      for (let i = 0; i < batch.length; i++) yield { event: 'result', data: row(i) as Record<string, unknown> };
    }
  } finally {
    await close();
  }
}

export type JsonResult =
  | { readonly kind: 'json'; readonly status: number; readonly json: string }
  | { readonly kind: 'stream'; readonly events: AsyncIterable<StreamEvent> };

/** Any result of a JSON-speaking face as the body text and status, or the stream's events. */
export async function encodeJson(result: EndpointResult): Promise<JsonResult> {
  if (result.kind !== 'rows') return result;
  return result.framing === 'page'
    ? { kind: 'json', status: 200, json: await pageJson(result) }
    : { kind: 'stream', events: framedEvents(result) };
}
