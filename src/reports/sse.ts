import type { StreamEvent } from './endpoint.ts';

/** One Server-Sent Event. Data is single-line JSON, so one `data:` line carries it. */
export function formatSseEvent(e: StreamEvent): string {
  return `event: ${e.event}\ndata: ${e.data}\n\n`;
}

export const sseKeepAlive = ': ping\n\n';
