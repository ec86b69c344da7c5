import { describe, expect, it } from 'vitest';
import { memoryDuckDb } from './helpers/memory-duckdb.ts';
import * as d from '../src/query/dialect.ts';
import { render, sql, type Fragment } from '../src/query/sql.ts';

/**
 * The pieces of SQL whose spelling differs by dialect (src/query/dialect.ts): each DuckDB spelling run on
 * DuckDB for what it computes, and each ClickHouse spelling as the text the ClickHouse backends receive
 * (chdb runs them in the normal suite: test/backend-agreement*.test.ts; chdb is outside the mutation set).
 */

const duck = memoryDuckDb();

/** BIGINTs as numbers, in lists and structs too. */
const numbers = (v: unknown): unknown =>
  typeof v === 'bigint'
    ? Number(v)
    : Array.isArray(v)
      ? v.map(numbers)
      : v !== null && typeof v === 'object' && v.constructor === Object
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, numbers(x)]))
        : v;

/** The rows of a query on DuckDB, as JS values. */
async function rows(q: Fragment): Promise<unknown[][]> {
  const r = render(q);
  return numbers((await duck().runAndReadAll(r.text, r.params as never)).getRowsJS()) as unknown[][];
}
const one = async (expr: Fragment, from: Fragment = sql``): Promise<unknown> =>
  (await rows(sql`SELECT ${expr} ${from}`))[0]![0];
const ch = (f: Fragment) => render(f, 'clickhouse').text;

const values = (items: string) => sql`FROM (VALUES ${sql([items] as unknown as TemplateStringsArray)}) t(v, k)`;

describe('the DuckDB spellings compute what they say', () => {
  it('lists and aggregates', async () => {
    const t = values(`(3, 'b'), (1, 'a'), (NULL, 'c'), (2, 'a')`);
    expect(await one(d.orderedList(sql`v`, [{ by: sql`k` }, { by: sql`v`, desc: true }]), t)).toEqual([2, 1, 3, null]);
    expect(await one(d.orderedList(sql`v`, [{ by: sql`v` }]), t)).toEqual([1, 2, 3, null]);
    expect(await one(d.orderedList(sql`v`, [{ by: sql`v`, desc: true }]), t)).toEqual([3, 2, 1, null]);
    expect(((await one(d.collect(sql`k`), t)) as string[]).toSorted()).toEqual(['a', 'a', 'b', 'c']);
    expect(await one(d.sortedSum(sql`v`), t)).toBe(6);
    expect(await one(d.argMax(sql`k`, sql`v`), t)).toBe('b');
    expect(await one(d.boolOr(sql`v > 2`), t)).toBe(true);
    expect(await one(d.boolOr(sql`v > 3`), t)).toBe(false);
    expect(await one(d.distinctSorted(sql`k`), t)).toEqual(['a', 'b', 'c']);
    expect(await one(d.distinctSorted(sql`k`), sql`FROM (SELECT 'x' AS k) WHERE false`)).toBeNull();
  });

  it('list functions', async () => {
    const list = sql`['b', 'a', 'b']`;
    expect((await rows(sql`SELECT ${d.eachItemOrNull(list, false)}`)).map((r) => r[0])).toEqual(['b', 'a', 'b']);
    expect((await rows(sql`SELECT ${d.eachItemOrNull(list, true)} AS x ORDER BY x`)).map((r) => r[0])).toEqual([
      'a',
      'b',
    ]);
    expect((await rows(sql`SELECT ${d.eachItemOrNull(sql`[]::VARCHAR[]`, true)}`)).map((r) => r[0])).toEqual([null]);
    expect(await one(d.listHasAny(list, sql`['c', 'a']`))).toBe(true);
    expect(await one(d.listHasAny(list, sql`['c']`))).toBe(false);
    expect(await one(d.listHas(list, sql`'a'`))).toBe(true);
    expect(await one(d.listHas(list, sql`'z'`))).toBe(false);
    expect(await one(d.listTransform(sql`[1, 2]`, 'x_1', sql`x_1 * 10`))).toEqual([10, 20]);
    expect(await one(d.listAny(sql`[1, 2]`, 'x', sql`x > 1`))).toBe(true);
    expect(await one(d.listAny(sql`[1, 2]`, 'x', sql`x > 2`))).toBe(false);
    expect(() => d.listAny(sql`[1]`, 'x; DROP', sql`true`)).toThrow('not a lambda parameter: x; DROP');
    expect(() => d.listTransform(sql`[1]`, 'X', sql`X`)).toThrow('not a lambda parameter: X');
    expect(() => d.listTransform(sql`[1]`, '1x', sql`1`)).toThrow('not a lambda parameter: 1x');
  });

  it('objects and JSON', async () => {
    const s = d.struct([
      ['a', sql`${1}`],
      ['b_c', sql`'x'`],
    ]);
    expect(await one(s)).toEqual({ a: 1, b_c: 'x' });
    expect(await one(d.jsonText(s))).toBe('{"a":1,"b_c":"x"}');
    expect(await one(d.rowObject(sql`SELECT 1 AS p, 'q' AS r`))).toEqual({ p: 1, r: 'q' });
    expect(await one(d.jsonText(sql`[1, 2]`))).toBe('[1,2]');
  });

  it('text', async () => {
    expect(await one(d.replaceFirst(sql`'a-b-c'`, sql`${'-'}`, sql`'+'`))).toBe('a+b-c');
    expect(await one(d.textContains(sql`'hello'`, sql`'ell'`))).toBe(true);
    expect(await one(d.textContains(sql`'hello'`, sql`'x'`))).toBe(false);
    expect(await one(d.lowerText(sql`'ÄB'`))).toBe('äb');
    expect(await one(d.startsWith(sql`'hello'`, sql`'he'`))).toBe(true);
    expect(await one(d.startsWith(sql`'hello'`, sql`'lo'`))).toBe(false);
    expect(await one(d.endsWith(sql`'hello'`, sql`'lo'`))).toBe(true);
    expect(await one(d.endsWith(sql`'hello'`, sql`'he'`))).toBe(false);
    expect(await one(d.nullSafeEqual(sql`NULL`, sql`NULL`))).toBe(true);
    expect(await one(d.nullSafeEqual(sql`1`, sql`NULL`))).toBe(false);
    expect(await one(d.nullText)).toBeNull();
    expect(await one(sql`typeof(${d.nullText})`)).toBe('VARCHAR');
    expect(await one(sql`typeof(${d.nullDouble})`)).toBe('DOUBLE');
    expect(await one(sql`typeof(${d.bigintOrNull(sql`2.0`)})`)).toBe('BIGINT');
    expect(await one(d.bigintOrNull(sql`NULL`))).toBeNull();
    expect(await one(d.intDiv(sql`7`, sql`2`))).toBe(3);
  });

  it('instants, days and zones', async () => {
    const at = d.instant(sql`${'2026-03-08T07:30:59.750Z'}`);
    expect(await one(d.epochSeconds(at))).toBe(Math.floor(Date.parse('2026-03-08T07:30:59.750Z') / 1000));
    expect(await one(d.formatInstant(at))).toBe('2026-03-08T07:30:59Z');
    expect(await one(d.formatDay(sql`DATE '2026-03-08'`))).toBe('2026-03-08');
    const et = sql`${'America/New_York'}`;
    expect(await one(d.zoneHour(at, et))).toBe(3);
    expect(await one(d.zoneDay(d.instant(sql`${'2026-03-08T03:00:00Z'}`), et))).toEqual(
      await one(sql`DATE '2026-03-07'`),
    );
    const kolkata = sql`${'Asia/Kolkata'}`;
    expect(await one(d.formatInstant(d.zoneHourStart(at, kolkata)))).toBe('2026-03-08T07:30:00Z');
    expect(await one(d.zoneOffsetSeconds(at, kolkata))).toBe(19_800);
    expect(await one(d.zoneOffsetSeconds(at, et))).toBe(-4 * 3600);
    expect(await one(d.wallClockText(at, kolkata, 3599))).toBe('2026-03-08T12:01:00');
    expect(await one(d.daysBetween(sql`DATE '2026-03-10'`, sql`DATE '2026-03-01'`))).toBe(9);
    expect(await one(d.daysBetween(sql`DATE '2026-03-01'`, sql`DATE '2026-03-10'`))).toBe(-9);
    const days = await rows(
      sql`SELECT ${d.formatDay(sql`d`)} FROM (${d.daySeries(sql`${'2026-02-27'}`, sql`${'2026-03-01'}`)})`,
    );
    expect(days.map((r) => r[0])).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
    const hours = await rows(
      sql`SELECT ${d.formatInstant(sql`ts`)} FROM (${d.hourSeries(d.instant(sql`${'2026-03-08T06:00:00Z'}`), d.instant(sql`${'2026-03-08T08:30:00Z'}`))})`,
    );
    expect(hours.map((r) => r[0])).toEqual(['2026-03-08T06:00:00Z', '2026-03-08T07:00:00Z', '2026-03-08T08:00:00Z']);
    expect(await one(d.formatDay(d.dateTrunc('week', sql`DATE '2026-03-08'`)))).toBe('2026-03-02');
    expect(await one(d.formatDay(d.dateTrunc('month', sql`DATE '2026-03-08'`)))).toBe('2026-03-01');
  });

  it('joins and CTEs', async () => {
    const t = sql`(SELECT 1 AS id, 'a' AS x UNION ALL SELECT 2, 'b')`;
    const u = sql`(SELECT 2 AS id)`;
    expect(await rows(sql`SELECT l.x FROM ${t} l ${d.semiJoin} ${u} r ON l.id = r.id`)).toEqual([['b']]);
    expect(await rows(sql`WITH c ${d.materialized} (SELECT 5 AS n) SELECT n FROM c`)).toEqual([[5]]);
    expect(await rows(sql`WITH c ${d.inlined} (SELECT 6 AS n) SELECT a.n + b.n FROM c a, c b`)).toEqual([[12]]);
    expect(
      await rows(sql`SELECT ${d.everyColumn('l', ['id'])} FROM ${t} l JOIN ${u} r USING (id) ORDER BY l.id`),
    ).toEqual([[2, 'b']]);
    expect(await rows(sql`SELECT f.topic_id, p.topic_id FROM (SELECT 7 AS topic_id) f${d.rowAlsoAsPrompt}`)).toEqual([
      [7, 7],
    ]);
  });
});

describe('the ClickHouse spellings, as the ClickHouse backends receive them', () => {
  it('lists and aggregates', () => {
    expect(ch(d.orderedList(sql`v`, [{ by: sql`k` }, { by: sql`n`, desc: true }]))).toBe(
      'arrayMap(t -> t.1, arraySort(t -> t.2, groupArray(tuple(v, tuple(k, -n)))))',
    );
    expect(ch(d.collect(sql`v`))).toBe('groupArray(v)');
    expect(ch(d.sortedSum(sql`v`))).toBe('arraySum(arraySort(groupArray(v)))');
    expect(ch(d.argMax(sql`v`, sql`b`))).toBe('argMax(v, b)');
    expect(ch(d.boolOr(sql`p`))).toBe('(max(p) = 1)');
    expect(ch(d.distinctSorted(sql`v`))).toBe('arraySort(groupUniqArray(v))');
    expect(ch(d.eachItemOrNull(sql`l`, false))).toBe(
      'arrayJoin(if(length(l) = 0, [CAST(NULL AS Nullable(String))], l))',
    );
    expect(ch(d.eachItemOrNull(sql`l`, true))).toBe(
      'arrayJoin(if(length(l) = 0, [CAST(NULL AS Nullable(String))], arrayDistinct(l)))',
    );
    expect(ch(d.listHasAny(sql`l`, sql`i`))).toBe('hasAny(l, i)');
    expect(ch(d.listHas(sql`l`, sql`i`))).toBe('has(l, i)');
    expect(ch(d.listTransform(sql`l`, 'x', sql`x + 1`))).toBe('arrayMap(x -> x + 1, l)');
    expect(ch(d.listAny(sql`l`, 'x', sql`x > 1`))).toBe('length(arrayFilter(x -> x > 1, l)) > 0');
  });

  it('objects, text and types', () => {
    expect(
      ch(
        d.struct([
          ['a', sql`1`],
          ['b', sql`2`],
        ]),
      ),
    ).toBe('tuple(1 AS "a", 2 AS "b")');
    expect(ch(d.jsonText(sql`v`))).toBe('toJSONString(v)');
    expect(ch(d.rowObject(sql`SELECT 1`))).toBe("(SELECT formatRowNoNewline('JSONEachRow', *) FROM (SELECT 1))");
    expect(ch(d.replaceFirst(sql`t`, sql`p`, sql`b`))).toBe('replaceRegexpOne(t, p, b)');
    expect(ch(d.textContains(sql`t`, sql`p`))).toBe('(position(t, p) > 0)');
    expect(ch(d.lowerText(sql`t`))).toBe('lowerUTF8(t)');
    expect(ch(d.startsWith(sql`t`, sql`p`))).toBe('startsWith(t, p)');
    expect(ch(d.endsWith(sql`t`, sql`p`))).toBe('endsWith(t, p)');
    expect(ch(d.nullSafeEqual(sql`a`, sql`b`))).toBe('a IS NOT DISTINCT FROM b');
    expect(ch(d.intDiv(sql`a`, sql`b`))).toBe('intDiv(a, b)');
    expect(ch(d.nullText)).toBe('CAST(NULL AS Nullable(String))');
    expect(ch(d.nullDouble)).toBe('CAST(NULL AS Nullable(Float64))');
    expect(ch(d.bigintOrNull(sql`v`))).toBe('CAST(v AS Nullable(Int64))');
  });

  it('instants, days and zones', () => {
    expect(ch(d.instant(sql`${'2026-01-01'}`))).toBe("parseDateTime64BestEffort({p1:String}, 6, 'UTC')");
    expect(ch(d.epochSeconds(sql`i`))).toBe('intDiv(toUnixTimestamp64Milli(i), 1000)');
    expect(ch(d.formatDay(sql`x`))).toBe("formatDateTime(x, '%Y-%m-%d')");
    expect(ch(d.formatInstant(sql`i`))).toBe("formatDateTime(i, '%Y-%m-%dT%H:%i:%SZ')");
    expect(ch(d.zoneHour(sql`i`, sql`z`))).toBe('toHour(toTimeZone(i, z))');
    expect(ch(d.zoneHourStart(sql`i`, sql`z`))).toBe(
      '(i - toIntervalMicrosecond((toMinute(toTimeZone(i, z)) * 60 + toSecond(i)) * 1000000 + toUnixTimestamp64Micro(i) % 1000000))',
    );
    expect(ch(d.zoneOffsetSeconds(sql`i`, sql`z`))).toBe('timeZoneOffset(toTimeZone(i, z))');
    expect(ch(d.wallClockText(sql`i`, sql`z`, 3599))).toBe(
      "formatDateTime(toDateTime64(toString(toTimeZone(i, z)), 6, 'UTC') - INTERVAL 3599 SECOND, '%Y-%m-%dT%H:%i:%S')",
    );
    expect(ch(d.daysBetween(sql`t`, sql`f`))).toBe("dateDiff('day', f, t)");
    expect(ch(d.zoneDay(sql`i`, sql`z`))).toBe('toDate(i, z)');
    expect(ch(d.dateTrunc('week', sql`x`))).toBe("CAST(date_trunc('week', x) AS DATE)");
    expect(ch(d.daySeries(sql`s`, sql`e`))).toBe(
      "SELECT arrayJoin(arrayMap(i -> addDays(CAST(s AS DATE), i), range(toUInt32(dateDiff('day', CAST(s AS DATE), CAST(e AS DATE)) + 1)))) AS d",
    );
    expect(ch(d.hourSeries(sql`s`, sql`l`))).toBe(
      "SELECT arrayJoin(arrayMap(i -> s + toIntervalHour(i), range(toUInt32(intDiv(dateDiff('second', s, l), 3600)) + 1))) AS ts",
    );
  });

  it('joins and CTEs', () => {
    expect(ch(d.semiJoin)).toBe('LEFT SEMI JOIN');
    expect(ch(d.materialized)).toBe('AS');
    expect(ch(d.inlined)).toBe('AS');
    expect(ch(d.everyColumn('l', ['id', 'n']))).toBe('"l".* EXCEPT ("id", "n"), "l"."id" AS "id", "l"."n" AS "n"');
    expect(ch(d.everyColumn('l', []))).toBe('"l".*');
    expect(ch(d.rowAlsoAsPrompt)).toBe(' ARRAY JOIN [tuple(f.topic_id AS topic_id)] AS p');
  });
});
