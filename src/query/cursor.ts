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

/** A keyset cursor: the sort key of the last row handed out, so edits between pages never shift them. */
interface KeyPayload {
  readonly k: unknown;
  readonly q: string;
}

/**
 * Cursors are opaque: base64url JSON of the next offset and the query fingerprint, then an HMAC. A
 * cursor made for another query, altered, or not made by this engine is a 422, never a wrong page.
 */
export class CursorCodec {
  /** Names the key without revealing it: answers that carry cursors differ between keys. */
  readonly keyId: string;

  constructor(private readonly secret: string) {
    this.keyId = createHash('sha256').update(`aea cursor key id\n${secret}`).digest('base64url').slice(0, 16);
  }

  encode(offset: number, queryFingerprint: string): string {
    const payload = Buffer.from(JSON.stringify({ o: offset, q: queryFingerprint } satisfies CursorPayload)).toString(
      'base64url',
    );
    return `${payload}.${this.sign(payload)}`;
  }

  decode(cursor: string, queryFingerprint: string, loc: (string | number)[]): number {
    const parsed = this.open<CursorPayload>(cursor, queryFingerprint, loc);
    if (!Number.isSafeInteger(parsed.o) || parsed.o < 0)
      throw ValidationError.of(loc, 'invalid cursor: pass back info.next_cursor unchanged', cursor);
    return parsed.o;
  }

  encodeKey(key: unknown, queryFingerprint: string): string {
    const payload = Buffer.from(JSON.stringify({ k: key, q: queryFingerprint } satisfies KeyPayload)).toString(
      'base64url',
    );
    return `${payload}.${this.sign(payload)}`;
  }

  decodeKey(cursor: string, queryFingerprint: string, loc: (string | number)[]): unknown {
    const parsed = this.open<KeyPayload>(cursor, queryFingerprint, loc);
    if (parsed.k === undefined)
      throw ValidationError.of(loc, 'invalid cursor: pass back the next_cursor unchanged', cursor);
    return parsed.k;
  }

  private open<P extends { q: string }>(cursor: string, queryFingerprint: string, loc: (string | number)[]): P {
    const [payload, signature, ...rest] = cursor.split('.');
    if (!payload || !signature || rest.length > 0 || !this.verify(payload, signature)) {
      throw ValidationError.of(loc, 'invalid cursor: pass back info.next_cursor unchanged', cursor);
    }
    let parsed: P;
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as P;
    } catch {
      throw ValidationError.of(loc, 'invalid cursor: pass back info.next_cursor unchanged', cursor);
    }
    if (parsed.q !== queryFingerprint) {
      throw ValidationError.of(
        loc,
        'this cursor belongs to a different query; a cursor is only valid with the request that returned it',
        cursor,
      );
    }
    return parsed;
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
