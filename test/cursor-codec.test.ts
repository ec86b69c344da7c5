import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { refusal } from './helpers/refusal.ts';
import { CursorCodec, fingerprint } from '../src/query/cursor.ts';

const loc = ['body', 'cursor'];
const codec = new CursorCodec('secret one');

const invalid = 'Value error, invalid cursor: pass back info.next_cursor unchanged';

/** A cursor signed as the codec signs: base64url JSON, a dot, the first 22 characters of its HMAC. */
const signed = (secret: string, payload: unknown) => {
  const text = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${text}.${createHmac('sha256', secret).update(text).digest('base64url').slice(0, 22)}`;
};

describe('the fingerprint of a request', () => {
  it('ignores key order and undefined members, and tells apart every other change', () => {
    expect(fingerprint({ a: 1, b: [1, { c: 'x', d: null }] })).toBe(fingerprint({ b: [1, { d: null, c: 'x' }], a: 1 }));
    expect(fingerprint({ a: 1, u: undefined })).toBe(fingerprint({ a: 1 }));
    expect(fingerprint(undefined)).toBe(fingerprint(null));
    expect(fingerprint({ a: 1 })).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const distinct = [
      { a: 1 },
      { a: '1' },
      { a: [1] },
      { a: 1, b: null },
      { b: 1 },
      [1, 2],
      [2, 1],
      '[1,2]',
      { a: { b: 1 } },
      { 'a:': 1 },
      null,
      {},
      [],
    ];
    expect(new Set(distinct.map(fingerprint)).size).toBe(distinct.length);
  });

  it('is the same for any order of an object’s keys', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 6 }), (o) => {
        const reversed = Object.fromEntries(Object.entries(o).reverse());
        expect(fingerprint(reversed)).toBe(fingerprint(o));
      }),
      { numRuns: 100 },
    );
  });
});

describe('cursors (src/query/cursor.ts)', () => {
  it('an offset and a key come back with the query they were made for', () => {
    fc.assert(
      fc.property(
        fc.nat(),
        fc.jsonValue().filter((k) => k !== null),
        fc.string(),
        (offset, key, q) => {
          expect(codec.decode(codec.encode(offset, q), q, loc)).toBe(offset);
          expect(codec.decodeKey(codec.encodeKey(key, q), q, loc)).toEqual(JSON.parse(JSON.stringify(key)));
        },
      ),
      { numRuns: 100 },
    );
    expect(codec.decodeKey(codec.encodeKey(null, 'q'), 'q', loc)).toBeNull();
  });

  it('is base64url JSON, a dot and a 22-character HMAC of the JSON text', () => {
    expect(codec.encode(40, 'q')).toBe(signed('secret one', { o: 40, q: 'q' }));
    expect(codec.encodeKey(['a', 1], 'q')).toBe(signed('secret one', { k: ['a', 1], q: 'q' }));
  });

  it('a cursor of another query is refused saying so', () => {
    const cursor = codec.encode(10, 'query a');
    expect(refusal(() => codec.decode(cursor, 'query b', loc))).toEqual({
      loc,
      msg: 'Value error, this cursor belongs to a different query; a cursor is only valid with the request that returned it',
      input: cursor,
    });
    expect(refusal(() => codec.decodeKey(codec.encodeKey(1, 'a'), 'b', loc)).msg).toMatch(/different query/);
  });

  it('an altered, foreign or malformed cursor is refused as invalid', () => {
    const good = codec.encode(10, 'q');
    const [payload, signature] = good.split('.') as [string, string];
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [
      `${payload}.${flipped}`,
      `${payload}.${signature.slice(0, -1)}`,
      `${payload}.${signature}x`,
      `${payload}.${signature}.${signature}`,
      `.${signature}`,
      `${payload}.`,
      payload,
      '',
      new CursorCodec('secret two').encode(10, 'q'),
      signed('secret one', { o: 10, q: 'q' }).replace(/^./, 'A'),
    ])
      expect(
        refusal(() => codec.decode(bad, 'q', loc)),
        bad,
      ).toEqual({ loc, msg: invalid, input: bad });
  });

  it('a signed cursor whose offset is not a non-negative safe integer, or without a key, or not JSON, is invalid', () => {
    for (const o of [-1, 1.5, '3', null, 2 ** 53])
      expect(refusal(() => codec.decode(signed('secret one', { o, q: 'q' }), 'q', loc)).msg).toBe(invalid);
    expect(codec.decode(signed('secret one', { o: 0, q: 'q' }), 'q', loc)).toBe(0);
    expect(refusal(() => codec.decodeKey(signed('secret one', { q: 'q' }), 'q', loc)).msg).toBe(
      'Value error, invalid cursor: pass back the next_cursor unchanged',
    );
    const text = Buffer.from('{not json').toString('base64url');
    const notJson = `${text}.${createHmac('sha256', 'secret one').update(text).digest('base64url').slice(0, 22)}`;
    expect(refusal(() => codec.decode(notJson, 'q', loc))).toEqual({ loc, msg: invalid, input: notJson });
  });

  it('names its key without revealing it: the same for one secret, different for another', () => {
    expect(codec.keyId).toBe(new CursorCodec('secret one').keyId);
    expect(codec.keyId).not.toBe(new CursorCodec('secret two').keyId);
    expect(codec.keyId).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(codec.keyId).not.toContain('secret');
  });
});
