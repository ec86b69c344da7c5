import { Fragment, Spelled, ident, join, key, sql } from './sql.ts';

/**
 * The SQL pieces whose spelling differs between DuckDB and ClickHouse. A report asks here and never
 * spells them itself, so its plan compiles to one fragment that renders to either dialect (`render`).
 * Everything else the reports write is common to both (CTEs, window functions, `FILTER`, `QUALIFY`,
 * `GROUP BY ALL`, `IS NOT DISTINCT FROM`, `date_trunc`, `CAST(… AS VARCHAR|BIGINT|DOUBLE|DATE)`), and
 * the ClickHouse backends set what makes the semantics agree (`join_use_nulls`, NULL aggregates over
 * no rows; see `clickhouseSettings`).
 */
const spelled = (duckdb: Fragment, clickhouse: Fragment): Fragment => new Spelled({ duckdb, clickhouse });

/** The JSON text of a value (a list or a struct), for a column that crosses as JSON (see `Wire`). */
export const jsonText = (value: Fragment): Fragment =>
  spelled(sql`CAST(to_json(${value}) AS VARCHAR)`, sql`toJSONString(${value})`);

/** The one row of a subquery as an object, its columns as fields: a DuckDB struct, or ClickHouse's JSON text of it (named tuples do not cross its JSON). */
export const rowObject = (subquery: Fragment): Fragment =>
  spelled(sql`(SELECT i FROM (${subquery}) i)`, sql`(SELECT formatRowNoNewline('JSONEachRow', *) FROM (${subquery}))`);

/** An object of named values: a struct, or ClickHouse's named tuple. Names come from this code base. */
export const struct = (fields: readonly (readonly [string, Fragment])[]): Fragment =>
  spelled(
    sql`{${join(
      fields.map(([name, v]) => sql`${key(name)}: ${v}`),
      ', ',
    )}}`,
    sql`tuple(${join(
      fields.map(([name, v]) => sql`${v} AS ${ident(name)}`),
      ', ',
    )})`,
  );

/** A sort key of `orderedList`; `desc` only for numbers (ClickHouse sorts by their negation). */
export interface ListOrder {
  readonly by: Fragment;
  readonly desc?: boolean;
}

/** The values of a group as a list in the given order (NULLs last); an empty list over no rows on ClickHouse, NULL on DuckDB. */
export const orderedList = (value: Fragment, order: readonly ListOrder[]): Fragment =>
  spelled(
    sql`list(${value} ORDER BY ${join(
      order.map((o) => (o.desc ? sql`${o.by} DESC` : o.by)),
      ', ',
    )})`,
    // TRICKY: groupArray skips NULLs, so each value travels in a tuple with its sort key.
    sql`arrayMap(t -> t.1, arraySort(t -> t.2, groupArray(tuple(${value}, tuple(${join(
      order.map((o) => (o.desc ? sql`-${o.by}` : o.by)),
      ', ',
    )})))))`,
  );

/** A group's values as a list, in no particular order. */
export const collect = (value: Fragment): Fragment => spelled(sql`list(${value})`, sql`groupArray(${value})`);

/** One row per item of a text list (distinct items with `distinct`), or one NULL row for an empty list. */
export const eachItemOrNull = (list: Fragment, distinct: boolean): Fragment =>
  spelled(
    sql`unnest(CASE WHEN len(${list}) = 0 THEN [NULL::VARCHAR] ELSE ${distinct ? sql`list_distinct(${list})` : list} END)`,
    sql`arrayJoin(if(length(${list}) = 0, [CAST(NULL AS Nullable(String))], ${distinct ? sql`arrayDistinct(${list})` : list}))`,
  );

/** Whether two lists share an item. */
export const listHasAny = (list: Fragment, items: Fragment): Fragment =>
  spelled(sql`list_has_any(${list}, ${items})`, sql`hasAny(${list}, ${items})`);

/** Each item `name` of a list mapped by `body`; `name` is a lambda parameter of this code base. */
export const listTransform = (list: Fragment, name: string, body: Fragment): Fragment =>
  spelled(
    sql`list_transform(${list}, ${lambdaName(name)} -> ${body})`,
    sql`arrayMap(${lambdaName(name)} -> ${body}, ${list})`,
  );

/** Whether some item `name` of a list satisfies `predicate`. */
export const listAny = (list: Fragment, name: string, predicate: Fragment): Fragment =>
  spelled(
    sql`len(list_filter(${list}, lambda ${lambdaName(name)}: ${predicate})) > 0`,
    sql`length(arrayFilter(${lambdaName(name)} -> ${predicate}, ${list})) > 0`,
  );

/** The sum of a group's values added in ascending order, so that the float sum does not depend on the order rows arrive in. */
export const sortedSum = (value: Fragment): Fragment =>
  spelled(sql`list_sum(list_sort(list(${value})))`, sql`arraySum(arraySort(groupArray(${value})))`);

/** The value of `value` on the row where `by` is largest. */
export const argMax = (value: Fragment, by: Fragment): Fragment =>
  spelled(sql`arg_max(${value}, ${by})`, sql`argMax(${value}, ${by})`);

/** An instant as whole seconds since 1970 (rounded down). */
export const epochSeconds = (instant: Fragment): Fragment =>
  spelled(sql`epoch_ms(${instant}) // 1000`, sql`intDiv(toUnixTimestamp64Milli(${instant}), 1000)`);

/** A date (or the UTC date of an instant) as `YYYY-MM-DD`. */
export const formatDay = (day: Fragment): Fragment =>
  spelled(sql`strftime(${day}, '%Y-%m-%d')`, sql`formatDateTime(${day}, '%Y-%m-%d')`);

/** A UTC instant as `YYYY-MM-DDTHH:MM:SSZ`. */
export const formatInstant = (instant: Fragment): Fragment =>
  spelled(sql`strftime(${instant}, '%Y-%m-%dT%H:%M:%SZ')`, sql`formatDateTime(${instant}, '%Y-%m-%dT%H:%i:%SZ')`);

/** An ISO 8601 instant text (a bound value) as an instant. */
export const instant = (text: Fragment): Fragment =>
  spelled(sql`CAST(${text} AS TIMESTAMPTZ)`, sql`parseDateTime64BestEffort(${text}, 6, 'UTC')`);

/** The first match of a regular expression replaced (RE2 in both). */
export const replaceFirst = (text: Fragment, pattern: Fragment, by: Fragment): Fragment =>
  spelled(sql`regexp_replace(${text}, ${pattern}, ${by})`, sql`replaceRegexpOne(${text}, ${pattern}, ${by})`);

/** Whether text holds a substring. */
export const textContains = (text: Fragment, part: Fragment): Fragment =>
  spelled(sql`contains(${text}, ${part})`, sql`(position(${text}, ${part}) > 0)`);

/** Text in lower case (Unicode). */
export const lowerText = (text: Fragment): Fragment => spelled(sql`lower(${text})`, sql`lowerUTF8(${text})`);

export const startsWith = (text: Fragment, prefix: Fragment): Fragment =>
  spelled(sql`starts_with(${text}, ${prefix})`, sql`startsWith(${text}, ${prefix})`);

export const endsWith = (text: Fragment, suffix: Fragment): Fragment =>
  spelled(sql`ends_with(${text}, ${suffix})`, sql`endsWith(${text}, ${suffix})`);

/** Whether any row of a group satisfies a predicate. */
export const boolOr = (predicate: Fragment): Fragment =>
  spelled(sql`bool_or(${predicate})`, sql`(max(${predicate}) = 1)`);

/** The hour of the day (0–23) of an instant in a zone (a bound IANA name). */
export const zoneHour = (instant: Fragment, zone: Fragment): Fragment =>
  spelled(sql`hour(timezone(${zone}, ${instant}))`, sql`toHour(toTimeZone(${instant}, ${zone}))`);

/**
 * The instant where the zone's wall clock last read :00 at or before an instant (a zone whose offsets
 * are not whole hours, such as Asia/Kolkata).
 */
export const zoneHourStart = (instant: Fragment, zone: Fragment): Fragment =>
  spelled(
    sql`(${instant} - (timezone(${zone}, ${instant}) - date_trunc('hour', timezone(${zone}, ${instant}))))`,
    // Offsets are whole minutes, so the wall clock's seconds and fraction are the instant's own.
    sql`(${instant} - toIntervalMicrosecond((toMinute(toTimeZone(${instant}, ${zone})) * 60 + toSecond(${instant})) * 1000000 + toUnixTimestamp64Micro(${instant}) % 1000000))`,
  );

/** The zone's wall clock at an instant, as a zone-less timestamp (DuckDB's `timezone(zone, instant)`). */
const wallClock = (instant: Fragment, zone: Fragment): Fragment =>
  spelled(sql`timezone(${zone}, ${instant})`, sql`toDateTime64(toString(toTimeZone(${instant}, ${zone})), 6, 'UTC')`);

/** The zone's offset from UTC at an instant, in seconds. */
export const zoneOffsetSeconds = (instant: Fragment, zone: Fragment): Fragment =>
  spelled(
    sql`CAST(epoch(timezone(${zone}, ${instant})) - epoch(${instant}) AS INTEGER)`,
    sql`timeZoneOffset(toTimeZone(${instant}, ${zone}))`,
  );

/** A zone-less timestamp less some seconds, as `YYYY-MM-DDTHH:MM:SS`. */
export const wallClockText = (instant: Fragment, zone: Fragment, lessSeconds: number): Fragment =>
  spelled(
    sql`strftime(${wallClock(instant, zone)} - INTERVAL ${new Fragment([String(lessSeconds)], [])} SECOND, '%Y-%m-%dT%H:%M:%S')`,
    sql`formatDateTime(${wallClock(instant, zone)} - INTERVAL ${new Fragment([String(lessSeconds)], [])} SECOND, '%Y-%m-%dT%H:%i:%S')`,
  );

const lambdaName = (name: string): Fragment => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a lambda parameter: ${name}`);
  return new Fragment([name], []);
};

/** List membership: the list holds the item. */
export const listHas = (list: Fragment, item: Fragment): Fragment =>
  spelled(sql`list_contains(${list}, ${item})`, sql`has(${list}, ${item})`);

/** Integer division, rounding toward zero for the non-negative operands reports divide (`//` opens a comment in ClickHouse). */
export const intDiv = (a: Fragment, b: Fragment): Fragment => spelled(sql`(${a} // ${b})`, sql`intDiv(${a}, ${b})`);

/** NULL-safe equality: NULL equals NULL. */
export const nullSafeEqual = (a: Fragment, b: Fragment): Fragment => sql`${a} IS NOT DISTINCT FROM ${b}`;

/** The distinct values of a group (never NULL: callers aggregate names and ids), sorted ascending, as a list; NULL over no rows. */
export const distinctSorted = (value: Fragment): Fragment =>
  spelled(sql`list(DISTINCT ${value} ORDER BY ${value})`, sql`arraySort(groupUniqArray(${value}))`);

/** Keeps the left rows that have a match on the right, each once. */
export const semiJoin: Fragment = spelled(sql`SEMI JOIN`, sql`LEFT SEMI JOIN`);

/**
 * Every column of a relation in a join, `shared` (the columns the join's other side also has) named
 * explicitly: ClickHouse cannot resolve such a column of a `alias.*` through the result's alias later.
 */
export const everyColumn = (alias: string, shared: readonly string[]): Fragment => {
  const a = ident(alias);
  if (shared.length === 0) return sql`${a}.*`;
  return spelled(
    sql`${a}.*`,
    sql`${a}.* EXCEPT (${join(
      shared.map((c) => ident(c)),
      ', ',
    )}), ${join(
      shared.map((c) => sql`${a}.${ident(c)} AS ${ident(c)}`),
      ', ',
    )}`,
  );
};

/** A CTE computed once for every reference to it (ClickHouse inlines its CTEs). */
export const materialized: Fragment = spelled(sql`AS MATERIALIZED`, sql`AS`);

/**
 * A CTE computed again at every reference: cheaper than keeping its rows when they are many, wide and
 * each reference reads a few of their columns (DuckDB keeps a CTE read twice; ClickHouse inlines them).
 */
export const inlined: Fragment = spelled(sql`AS NOT MATERIALIZED`, sql`AS`);

/** The first day of a calendar day's week (ISO, from Monday) or month, as a date. */
export const dateTrunc = (unit: 'week' | 'month', day: Fragment): Fragment =>
  unit === 'week' ? sql`CAST(date_trunc('week', ${day}) AS DATE)` : sql`CAST(date_trunc('month', ${day}) AS DATE)`;

/** Days from date `from` to date `to` (negative when `to` is earlier). */
export const daysBetween = (to: Fragment, from: Fragment): Fragment =>
  spelled(sql`(${to} - ${from})`, sql`dateDiff('day', ${from}, ${to})`);

/** The calendar day of an instant in a time zone (a bound IANA name). */
export const zoneDay = (instant: Fragment, zone: Fragment): Fragment =>
  spelled(sql`CAST(timezone(${zone}, ${instant}) AS DATE)`, sql`toDate(${instant}, ${zone})`);

/** One row `d` per day from `start` to `end`, both dates and both included. */
export const daySeries = (start: Fragment, end: Fragment): Fragment =>
  spelled(
    sql`SELECT unnest(generate_series(CAST(${start} AS DATE), CAST(${end} AS DATE), INTERVAL 1 DAY))::DATE AS d`,
    sql`SELECT arrayJoin(arrayMap(i -> addDays(CAST(${start} AS DATE), i), range(toUInt32(dateDiff('day', CAST(${start} AS DATE), CAST(${end} AS DATE)) + 1)))) AS d`,
  );

/** One row `ts` per hour from the instant `start` to at most the instant `last`. */
export const hourSeries = (start: Fragment, last: Fragment): Fragment =>
  spelled(
    sql`SELECT unnest(generate_series(${start}, ${last}, INTERVAL 1 HOUR)) AS ts`,
    sql`SELECT arrayJoin(arrayMap(i -> ${start} + toIntervalHour(i), range(toUInt32(intDiv(dateDiff('second', ${start}, ${last}), 3600)) + 1))) AS ts`,
  );

/** A NULL typed as a double (ClickHouse casts NULL only to a Nullable type). */
export const nullText: Fragment = spelled(sql`CAST(NULL AS VARCHAR)`, sql`CAST(NULL AS Nullable(String))`);

export const nullDouble: Fragment = spelled(sql`CAST(NULL AS DOUBLE)`, sql`CAST(NULL AS Nullable(Float64))`);

/**
 * The current row of `f` seen under a second alias `p` too, with `f.topic_id` as `p.topic_id` (a rollup
 * row standing for its prompt): DuckDB's lateral one-row subquery; ClickHouse has no lateral join, so a
 * one-item ARRAY JOIN of a named tuple, which keeps every row once.
 */
export const rowAlsoAsPrompt: Fragment = spelled(
  sql`, (SELECT f.topic_id AS topic_id) p`,
  sql` ARRAY JOIN [tuple(f.topic_id AS topic_id)] AS p`,
);

/**
 * An aggregate as BIGINT that stays NULL over no rows (a scalar subquery over an empty window): DuckDB's
 * CAST keeps NULL; ClickHouse's to a plain `Int64` fails on it ("Cannot convert NULL value to
 * non-Nullable type"), since `aggregate_functions_null_for_empty` makes `sum` over no rows NULL.
 */
export const bigintOrNull = (value: Fragment): Fragment =>
  spelled(sql`CAST(${value} AS BIGINT)`, sql`CAST(${value} AS Nullable(Int64))`);
