import { openRows } from '../formats/json.ts';
import { rowWriter } from '../query/row-json.ts';
import type { EndpointResult } from '../query/rows-result.ts';

/** The bounds of one answer: rows, and bytes of row JSON. */
export const defaultMaxRows = 50;
export const maxRowBytes = 100 * 1024;

/** A piece of an answer: its head (the REST answer's `info`, or the listing without its rows), some rows, and whether rows remain after them. */
export interface BoundedPiece {
  readonly head: Record<string, unknown> | null;
  /** Each row as the REST answer's JSON text, so numbers are exactly the REST service's. */
  readonly rows: readonly string[];
  readonly more: boolean;
  /** What stopped the piece before the answer's end: the row bound or the byte bound. */
  readonly stoppedBy: 'rows' | 'bytes' | null;
  /** The JSON answer of an operation that answers no rows (explain, a write's result), as text. */
  readonly whole?: string;
}

interface Taker {
  readonly rows: string[];
  bytes: number;
  stoppedBy: 'rows' | 'bytes' | null;
}

/** Takes a row unless the bounds are reached; the first row of a piece is always taken, so every piece makes progress. */
function take(t: Taker, row: string, maxRows: number): boolean {
  const size = Buffer.byteLength(row);
  if (t.rows.length >= maxRows) t.stoppedBy = 'rows';
  else if (t.rows.length > 0 && t.bytes + size > maxRowBytes) t.stoppedBy = 'bytes';
  else {
    t.rows.push(row);
    t.bytes += size;
    return true;
  }
  return false;
}

/**
 * Reads rows `skip` onwards of an answer until `maxRows` rows or `maxRowBytes` bytes, then stops the read
 * (a report's statement is interrupted, so a stream-sized request costs one bounded piece).
 */
export async function boundedPiece(result: EndpointResult, skip: number, maxRows: number): Promise<BoundedPiece> {
  const t: Taker = { rows: [], bytes: 0, stoppedBy: null };
  if (result.kind === 'rows') {
    const write = rowWriter(result.shape);
    const { head, batches, close } = await openRows(result);
    let seen = 0;
    try {
      outer: for await (const batch of batches) {
        const row = write(batch);
        for (let i = 0; i < batch.length; i++, seen++) {
          if (seen < skip) continue;
          if (!take(t, row(i), maxRows)) break outer;
        }
      }
    } finally {
      await close();
    }
    return {
      head: JSON.parse(JSON.stringify(head)) as Record<string, unknown>,
      rows: t.rows,
      more: t.stoppedBy !== null,
      stoppedBy: t.stoppedBy,
    };
  }
  if (result.kind === 'stream') throw new Error('a stream operation is not served as a tool');
  const parsed = JSON.parse(result.json) as unknown;
  const list = Array.isArray(parsed)
    ? parsed
    : parsed !== null && typeof parsed === 'object' && Array.isArray((parsed as { data?: unknown }).data)
      ? (parsed as { data: unknown[] }).data
      : null;
  if (list === null) return { head: null, rows: [], more: false, stoppedBy: null, whole: result.json };
  for (const item of list.slice(skip)) if (!take(t, JSON.stringify(item), maxRows)) break;
  const head = Array.isArray(parsed)
    ? null
    : (Object.fromEntries(Object.entries(parsed as object).filter(([k]) => k !== 'data')) as Record<string, unknown>);
  return { head, rows: t.rows, more: t.stoppedBy !== null, stoppedBy: t.stoppedBy };
}
