import type { ColumnBatch } from '../query/row-shape.ts';
import { loopTurn } from '../query/loop-turns.ts';
import type { Fragment } from '../query/sql.ts';
import type { Snapshot } from './backend.ts';
import { sliceBatch } from './column-reads.ts';

/** What a ClickHouse statement answers in the `JSONCompact` format. */
export interface CompactJson {
  readonly meta: readonly { readonly name: string; readonly type: string }[];
  readonly data: readonly (readonly unknown[])[];
}

/**
 * Settings every ClickHouse statement runs with, so that its answers are DuckDB's: an outer join's
 * missing side is NULL (not the type's default), an aggregate over no rows is NULL (not 0), 64-bit
 * integers and non-finite floats cross JSON as numbers and nulls, instants are UTC, tuples may name
 * their items, and a column shadows a select alias of the same name (`count(*) FILTER (WHERE accurate) AS accurate`).
 * A Distributed table with a shard down fails the statement, even where a server profile sets
 * `skip_unavailable_shards`: an answer is whole or an error, never the live shards' rows alone.
 */
export const clickhouseSettings = {
  join_use_nulls: 1,
  aggregate_functions_null_for_empty: 1,
  output_format_json_quote_64bit_integers: 0,
  output_format_json_quote_denormals: 0,
  output_format_json_named_tuples_as_objects: 1,
  enable_named_columns_in_function_tuple: 1,
  prefer_column_name_to_alias: 1,
  session_timezone: 'UTC',
  skip_unavailable_shards: 0,
  // A bare UNION is DuckDB's and the standard's: distinct rows.
  union_default_mode: 'DISTINCT',
} as const;

type Convert = (v: unknown) => unknown;

const asDay: Convert = (v) => (typeof v === 'string' ? new Date(`${v}T00:00:00Z`) : v);
const asInstant: Convert = (v) => (typeof v === 'string' ? new Date(`${v.replace(' ', 'T')}Z`) : v);

/** How a column of a ClickHouse type becomes what DuckDB's client gives: days and instants as Dates. */
function converter(type: string): Convert | undefined {
  const inner = type
    .replace(/^(?:Nullable|LowCardinality)\((.*)\)$/, '$1')
    .replace(/^(?:Nullable|LowCardinality)\((.*)\)$/, '$1');
  if (inner === 'Date' || inner === 'Date32') return asDay;
  if (inner.startsWith('DateTime')) return asInstant;
  const list = /^Array\((.*)\)$/.exec(inner);
  if (list) {
    const item = converter(list[1]!);
    return item ? (v) => (Array.isArray(v) ? v.map(item) : v) : undefined;
  }
  return undefined;
}

/** A `JSONCompact` answer as a batch of columns. */
export function compactBatch(answer: CompactJson): ColumnBatch {
  const columns: Record<string, unknown[]> = {};
  answer.meta.forEach(({ name, type }, i) => {
    const convert = converter(type);
    columns[name] = answer.data.map(convert ? (row) => convert(row[i]) : (row) => row[i]);
  });
  return { length: answer.data.length, columns };
}

/** Rows a stream hands on at a time, as DuckDB's chunks. */
const batchRows = 2048;

/**
 * A snapshot of a ClickHouse backend: each statement is read whole (ClickHouse answers a statement at
 * once) and a stream hands it on 2,048 rows at a time, so it holds one slice, not one chunk.
 */
export function wholeStatements(read: (query: Fragment) => Promise<ColumnBatch>): Snapshot {
  return {
    read,
    batches: async function* (query) {
      const whole = await read(query);
      for (let from = 0; from < whole.length; from += batchRows) {
        if (from > 0) await loopTurn();
        yield sliceBatch(whole, from, from + batchRows);
      }
    },
    close: async () => undefined,
  };
}
