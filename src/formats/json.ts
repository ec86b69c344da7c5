import { setImmediate } from 'node:timers/promises';
import type { EndpointResult, RowsResult, StreamEvent } from '../reports/endpoint.ts';
import { rowReader, rowWriter } from '../query/row-json.ts';

/** The spec's page body, `{"info":…,"data":[…]}`, as text. */
export async function pageJson(result: RowsResult): Promise<string> {
  const write = rowWriter(result.shape);
  const rows: string[] = [];
  for await (const batch of result.batches) {
    const row = write(batch);
    for (let i = 0; i < batch.length; i++) rows.push(row(i));
  }
  return `{"info":${JSON.stringify(result.head)},"data":[${rows.join(',')}]}`;
}

/** The spec's page body as JS values: what `JSON.parse(await pageJson(result))` gives, without the text. */
export async function pageObject(result: RowsResult): Promise<{ info: Record<string, unknown>; data: unknown[] }> {
  const read = rowReader(result.shape);
  const data: unknown[] = [];
  for await (const batch of result.batches) {
    const row = read(batch);
    for (let i = 0; i < batch.length; i++) data.push(row(i));
  }
  return { info: JSON.parse(JSON.stringify(result.head)) as Record<string, unknown>, data };
}

/**
 * The stream's events: `summary` with the head, then one `result` per row. Between batches the event
 * loop gets a turn, so a long stream never holds it.
 */
export async function* streamEvents(result: RowsResult): AsyncGenerator<StreamEvent> {
  yield { event: 'summary', data: JSON.stringify(result.head) };
  const write = rowWriter(result.shape);
  for await (const batch of result.batches) {
    const row = write(batch);
    for (let i = 0; i < batch.length; i++) yield { event: 'result', data: row(i) };
    await setImmediate();
  }
}

/** The same events as JS values, for the library's iterators. */
export async function* streamObjects(result: RowsResult): AsyncGenerator<{ event: string; data: Record<string, unknown> }> {
  yield { event: 'summary', data: JSON.parse(JSON.stringify(result.head)) as Record<string, unknown> };
  const read = rowReader(result.shape);
  for await (const batch of result.batches) {
    const row = read(batch);
    for (let i = 0; i < batch.length; i++) yield { event: 'result', data: row(i) as Record<string, unknown> };
  }
}

/** Any result of a JSON-speaking face as the body text and status, or the stream's events. */
export async function encodeJson(result: EndpointResult): Promise<{ kind: 'json'; status: number; json: string } | { kind: 'stream'; events: AsyncIterable<StreamEvent> }> {
  if (result.kind !== 'rows') return result;
  return result.framing === 'page' ? { kind: 'json', status: 200, json: await pageJson(result) } : { kind: 'stream', events: streamEvents(result) };
}
