import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ValidationError } from '../errors.ts';

/** A stable hash of a JSON value: object keys sorted, so key order in the request does not matter. */
export function fingerprint(value: unknown): string {
  return createHash('sha256').update(canonical(value)).digest('base64url').slice(0, 22);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

interface CursorPayload {
  readonly o: number;
  readonly q: string;
}

/**
 * Cursors are opaque: base64url JSON of the next offset and the query fingerprint, then an HMAC. A
 * cursor made for another query, altered, or not made by this engine is a 422, never a wrong page.
 */
export class CursorCodec {
  constructor(private readonly secret: string) {}

  encode(offset: number, queryFingerprint: string): string {
    const payload = Buffer.from(JSON.stringify({ o: offset, q: queryFingerprint } satisfies CursorPayload)).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  decode(cursor: string, queryFingerprint: string, loc: (string | number)[]): number {
    const [payload, signature, ...rest] = cursor.split('.');
    if (!payload || !signature || rest.length > 0 || !this.verify(payload, signature)) {
      throw ValidationError.of(loc, 'invalid cursor: pass back info.next_cursor unchanged', cursor);
    }
    let parsed: CursorPayload;
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as CursorPayload;
    } catch {
      throw ValidationError.of(loc, 'invalid cursor: pass back info.next_cursor unchanged', cursor);
    }
    if (parsed.q !== queryFingerprint) {
      throw ValidationError.of(loc, 'this cursor belongs to a different query; a cursor is only valid with the request that returned it', cursor);
    }
    if (!Number.isSafeInteger(parsed.o) || parsed.o < 0) throw ValidationError.of(loc, 'invalid cursor: pass back info.next_cursor unchanged', cursor);
    return parsed.o;
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url').slice(0, 22);
  }

  private verify(payload: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
