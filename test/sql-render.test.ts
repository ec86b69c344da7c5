import { describe, expect, it } from 'vitest';
import { lowerText } from '../src/query/dialect.ts';
import { and, clickhouseParams, empty, ident, join, key, list, render, seenKeys, sql } from '../src/query/sql.ts';

/**
 * SQL text and parameters exactly as each dialect receives them: every value a numbered placeholder
 * (DuckDB's `$n`, ClickHouse's typed `{pn:Type}`), names only from the catalog's pattern.
 */

describe('a fragment rendered', () => {
  it('binds every value as a placeholder numbered in order of appearance, through nested fragments', () => {
    const inner = sql`b = ${'x'} AND c = ${2}`;
    const q = sql`SELECT ${1} WHERE a = ${"it's"} AND (${inner}) OR d IS ${null}`;
    expect(render(q)).toEqual({
      text: `SELECT $1 WHERE a = $2 AND (b = $3 AND c = $4) OR d IS $5`,
      params: [1, "it's", 'x', 2, null],
    });
    expect(render(q, 'clickhouse')).toEqual({
      text: `SELECT {p1:Int64} WHERE a = {p2:String} AND (b = {p3:String} AND c = {p4:Int64}) OR d IS {p5:Nullable(String)}`,
      params: [1, "it's", 'x', 2, null],
    });
    expect(render(sql`plain`)).toEqual({ text: 'plain', params: [] });
    expect(render(empty)).toEqual({ text: '', params: [] });
  });

  it('declares each ClickHouse parameter with its type, and names it pn, a bigint as its digits', () => {
    const q = render(sql`${true} ${false} ${3n} ${-4} ${2.5} ${Number.NaN} ${''}`, 'clickhouse');
    expect(q.text).toBe('{p1:Bool} {p2:Bool} {p3:Int64} {p4:Int64} {p5:Float64} {p6:Float64} {p7:String}');
    expect(clickhouseParams(q.params)).toEqual({
      p1: true,
      p2: false,
      p3: '3',
      p4: -4,
      p5: 2.5,
      p6: Number.NaN,
      p7: '',
    });
    expect(clickhouseParams([])).toEqual({});
  });

  it('picks the spelling of its dialect', () => {
    const q = sql`WHERE ${lowerText(sql`name`)} = ${'ü'}`;
    expect(render(q)).toEqual({ text: 'WHERE lower(name) = $1', params: ['ü'] });
    expect(render(q, 'clickhouse')).toEqual({ text: 'WHERE lowerUTF8(name) = {p1:String}', params: ['ü'] });
  });
});

describe('fragments combined', () => {
  it('join with a separator, and nothing when empty', () => {
    expect(render(join([sql`a`, sql`${1}`, sql`c`], ' | '))).toEqual({ text: 'a | $1 | c', params: [1] });
    expect(render(join([sql`a`], ', ')).text).toBe('a');
    expect(render(join([], ', ')).text).toBe('');
    expect(render(list(['a', 2, null]))).toEqual({ text: '$1, $2, $3', params: ['a', 2, null] });
  });

  it('and each part in parentheses, TRUE when there are none', () => {
    expect(render(and([sql`a = ${1}`, sql`b OR c`])).text).toBe('(a = $1) AND (b OR c)');
    expect(render(and([])).text).toBe('TRUE');
  });

  it('the keys a fill crosses, or one constant column', () => {
    expect(render(seenKeys([ident('a'), ident('b')])).text).toBe('"a", "b"');
    expect(render(seenKeys([])).text).toBe('1 AS seen');
  });
});

describe('a catalog name', () => {
  it('enters SQL quoted as an identifier or a key, when it is lower-case letters, digits and _', () => {
    expect(render(ident('visits_2')).text).toBe('"visits_2"');
    expect(render(ident('_x')).text).toBe('"_x"');
    expect(render(key('model_id')).text).toBe("'model_id'");
  });

  it('is refused otherwise, never spliced', () => {
    for (const bad of ['', '2a', 'A', 'a-b', 'a"b', 'a b', "a'", 'é', 'a\n', 'x;DROP'])
      for (const [make, what] of [
        [ident, 'identifier'],
        [key, 'key'],
      ] as const)
        expect(() => make(bad)).toThrow(`not a catalog ${what}: ${JSON.stringify(bad)}`);
  });
});
