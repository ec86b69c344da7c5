import type { DuckDBConnection, DuckDBType, DuckDBValue } from '@duckdb/node-api';
import {
  DuckDBDataChunk,
  DuckDBDateValue,
  DuckDBTimestampTZValue,
  BIGINT,
  BOOLEAN,
  DATE,
  DOUBLE,
  INTEGER,
  LIST,
  TIMESTAMPTZ,
  VARCHAR,
  listValue,
} from './duckdb-api.ts';
import { DataType, type Table as ArrowTable } from 'apache-arrow';
import { DatasetError } from '../errors.ts';
import type { ColumnDef, ColumnType } from '../model/column.ts';
import { tables, type TableName } from '../model/tables.ts';

const duckType: Record<ColumnType, DuckDBType> = {
  VARCHAR,
  UUID: VARCHAR,
  BOOLEAN,
  INTEGER,
  BIGINT,
  DOUBLE,
  DATE,
  TIMESTAMPTZ,
  'VARCHAR[]': LIST(VARCHAR),
};

const msPerDay = 86_400_000;
const integerRange = { INTEGER: [-(2n ** 31n), 2n ** 31n - 1n], BIGINT: [-(2n ** 63n), 2n ** 63n - 1n] } as const;

/** A value the column's Arrow type can hold but the contract type cannot (3e9 in an INTEGER column). */
class Misfit extends Error {}

type Convert = (value: unknown) => DuckDBValue;

/** Plain, large, view and dictionary-encoded strings (what `tableFromJSON` and `tableFromArrays` make). */
function isText(type: DataType): boolean {
  return (
    DataType.isUtf8(type) ||
    DataType.isLargeUtf8(type) ||
    DataType.isUtf8View(type) ||
    (DataType.isDictionary(type) && isText(type.dictionary))
  );
}

const millis = (value: unknown) => Number(value instanceof Date ? value.getTime() : value);

function whole(contract: 'INTEGER' | 'BIGINT'): (value: unknown) => bigint {
  const [min, max] = integerRange[contract];
  return (value) => {
    if (typeof value === 'number' && !Number.isInteger(value)) throw new Misfit(`${value} is not a whole number`);
    const n = BigInt(value as number | bigint);
    if (n < min || n > max) throw new Misfit(`${n} does not fit ${contract}`);
    return n;
  };
}

/** Integer widths that always fit the contract type, so their values need no check. */
function alwaysFits(contract: 'INTEGER' | 'BIGINT', arrow: DataType): boolean {
  if (!DataType.isInt(arrow)) return false;
  return contract === 'BIGINT'
    ? arrow.isSigned || arrow.bitWidth < 64
    : arrow.bitWidth < 32 || (arrow.isSigned && arrow.bitWidth === 32);
}

/** How a column of this Arrow type becomes the contract type, or undefined when it cannot. */
function converter(column: ColumnDef, arrow: DataType): Convert | undefined {
  if (DataType.isNull(arrow)) return column.nullable ? () => null : undefined;
  switch (column.type) {
    case 'VARCHAR':
    case 'UUID':
      return isText(arrow) ? (v) => String(v) : undefined;
    case 'BOOLEAN':
      return DataType.isBool(arrow) ? (v) => Boolean(v) : undefined;
    case 'INTEGER':
    case 'BIGINT': {
      if (!DataType.isInt(arrow) && !DataType.isFloat(arrow)) return undefined;
      const contract = column.type;
      const fit = alwaysFits(contract, arrow) ? (v: unknown) => BigInt(v as number | bigint) : whole(contract);
      return contract === 'INTEGER' ? (v) => Number(fit(v)) : fit;
    }
    case 'DOUBLE':
      return DataType.isFloat(arrow) || DataType.isInt(arrow) ? (v) => Number(v) : undefined;
    case 'DATE':
      if (DataType.isDate(arrow)) return (v) => new DuckDBDateValue(Math.floor(millis(v) / msPerDay));
      if (!DataType.isTimestamp(arrow)) return undefined;
      return (v) => {
        const ms = millis(v);
        if (ms % msPerDay !== 0) throw new Misfit(`${new Date(ms).toISOString()} is not a date (midnight UTC)`);
        return new DuckDBDateValue(ms / msPerDay);
      };
    case 'TIMESTAMPTZ':
      return DataType.isTimestamp(arrow) || DataType.isDate(arrow)
        ? (v) => new DuckDBTimestampTZValue(BigInt(Math.round(millis(v))) * 1000n)
        : undefined;
    case 'VARCHAR[]':
      if (!(DataType.isList(arrow) || DataType.isLargeList(arrow)) || !isText(arrow.children[0]!.type))
        return undefined;
      return (v) => listValue(Array.from(v as Iterable<unknown>, (x) => (x === null ? null : String(x))));
  }
}

/**
 * Copies an in-memory Arrow table into a DuckDB table named `arrow_<table>` with the contract's columns.
 * Types are checked first and values as they are copied, so a bad column fails here, with its name,
 * not in a report. Strings may be dictionary-encoded or views; integers and floats may be wider than
 * the contract's integer type when every value fits.
 */
export async function loadArrowTable(conn: DuckDBConnection, table: TableName, arrow: ArrowTable): Promise<string> {
  const columns = Object.entries(tables[table].columns as Record<string, ColumnDef>);
  const readers = columns.map(([name, column]) => {
    const field = arrow.schema.fields.find((f) => f.name === name);
    if (!field)
      throw new DatasetError(`Arrow table "${table}" is missing column "${name}" (${column.type})`, undefined, name);
    const vector = arrow.getChild(name)!;
    // An all-null column leaves nothing to infer its type from: tableFromArrays makes it Float64.
    const convert =
      converter(column, field.type) ?? (column.nullable && vector.nullCount === vector.length ? () => null : undefined);
    if (!convert)
      throw new DatasetError(
        `Arrow table "${table}": column "${name}" has type ${field.type}, expected ${column.type}`,
        undefined,
        name,
      );
    return { name, convert, vector };
  });
  const staging = `arrow_${table}`;
  const ddl = columns.map(([name, c]) => `"${name}" ${c.type === 'UUID' ? 'VARCHAR' : c.type}`).join(', ');
  await conn.run(`CREATE OR REPLACE TABLE "${staging}" (${ddl})`);
  const appender = await conn.createAppender(staging);
  const types = columns.map(([, c]) => duckType[c.type]);
  const size = 2048;
  for (let offset = 0; offset < arrow.numRows; offset += size) {
    const n = Math.min(size, arrow.numRows - offset);
    const chunk = DuckDBDataChunk.create(types, n);
    readers.forEach(({ name, convert, vector }, i) => {
      const values: DuckDBValue[] = new Array(n);
      for (let r = 0; r < n; r++) {
        const value = vector.get(offset + r);
        try {
          values[r] = value === null || value === undefined ? null : convert(value);
        } catch (error) {
          if (!(error instanceof Misfit)) throw error;
          throw new DatasetError(
            `Arrow table "${table}": column "${name}" row ${offset + r}: ${error.message}`,
            undefined,
            name,
          );
        }
      }
      chunk.setColumnValues(i, values);
    });
    appender.appendDataChunk(chunk);
  }
  appender.closeSync();
  return staging;
}
