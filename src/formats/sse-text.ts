import type { StreamEvent } from '../query/rows-result.ts';

/** One Server-Sent Event. Data is single-line JSON, so one `data:` line carries it. */
export function formatSseEvent(e: StreamEvent): string {
  return `event: ${e.event}\ndata: ${e.data}\n\n`;
}

export const sseKeepAlive = ': ping\n\n';

/** Consecutive events as one SSE text, and how many of them are `result` events (rows). */
export interface SsePiece {
  readonly text: string;
  readonly results: number;
}

/**
 * A stream's events that can also be read as SSE text a batch of rows at a time: the same bytes as
 * `formatSseEvent` of each event, written once per batch instead of once per event. Either reading
 * runs the stream; nothing runs until one is iterated.
 */
export interface FramedEvents extends AsyncIterable<StreamEvent> {
  sseText(): AsyncGenerator<SsePiece>;
}

export const isFramed = (events: AsyncIterable<StreamEvent>): events is FramedEvents =>
  typeof (events as Partial<FramedEvents>).sseText === 'function';

/** The SSE text of a stream's events, a batch at a time when the stream offers it. */
export async function* sseText(events: AsyncIterable<StreamEvent>): AsyncGenerator<SsePiece> {
  if (isFramed(events)) return yield* events.sseText();
  for await (const e of events) yield { text: formatSseEvent(e), results: e.event === 'result' ? 1 : 0 };
}
