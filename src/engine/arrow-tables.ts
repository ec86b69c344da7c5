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
  type DuckDBConnection,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';
import { DataType, type Table as ArrowTable } from 'apache-arrow';
import { DatasetError } from '../errors.ts';
import type { ColumnType } from '../model/column.ts';
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

function accepts(type: ColumnType, arrow: DataType): boolean {
  switch (type) {
    case 'VARCHAR':
    case 'UUID':
      return DataType.isUtf8(arrow) || DataType.isLargeUtf8(arrow);
    case 'BOOLEAN':
      return DataType.isBool(arrow);
    case 'INTEGER':
    case 'BIGINT':
      return DataType.isInt(arrow);
    case 'DOUBLE':
      return DataType.isFloat(arrow) || DataType.isInt(arrow);
    case 'DATE':
      return DataType.isDate(arrow);
    case 'TIMESTAMPTZ':
      return DataType.isTimestamp(arrow) || DataType.isDate(arrow);
    case 'VARCHAR[]':
      return DataType.isList(arrow) && (DataType.isUtf8(arrow.children[0]!.type) || DataType.isLargeUtf8(arrow.children[0]!.type));
  }
}

function toDuck(type: ColumnType, value: unknown): DuckDBValue {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'VARCHAR':
    case 'UUID':
      return String(value);
    case 'BOOLEAN':
      return Boolean(value);
    case 'INTEGER':
    case 'DOUBLE':
      return Number(value);
    case 'BIGINT':
      return BigInt(value as number | bigint);
    case 'DATE':
      return new DuckDBDateValue(Math.floor(Number(value instanceof Date ? value.getTime() : value) / msPerDay));
    case 'TIMESTAMPTZ':
      return new DuckDBTimestampTZValue(BigInt(Math.round(Number(value instanceof Date ? value.getTime() : value))) * 1000n);
    case 'VARCHAR[]':
      return listValue(Array.from(value as Iterable<unknown>, (v) => (v === null ? null : String(v))));
  }
}

/**
 * Copies an in-memory Arrow table into a DuckDB table named `arrow_<table>` with the contract's columns.
 * Types are checked first, so a bad column fails here, with its name, not in a report.
 */
export async function loadArrowTable(conn: DuckDBConnection, table: TableName, arrow: ArrowTable): Promise<string> {
  const def = tables[table];
  const columns = Object.entries(def.columns);
  const vectors = columns.map(([name, column]) => {
    const field = arrow.schema.fields.find((f) => f.name === name);
    if (!field) throw new DatasetError(`Arrow table "${table}" is missing column "${name}" (${column.type})`, undefined, name);
    if (!accepts(column.type, field.type)) {
      throw new DatasetError(`Arrow table "${table}": column "${name}" has type ${field.type}, expected ${column.type}`, undefined, name);
    }
    return arrow.getChild(name)!;
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
    columns.forEach(([, c], i) => {
      const values: DuckDBValue[] = new Array(n);
      const vector = vectors[i]!;
      for (let r = 0; r < n; r++) values[r] = toDuck(c.type, vector.get(offset + r));
      chunk.setColumnValues(i, values);
    });
    appender.appendDataChunk(chunk);
  }
  appender.closeSync();
  return staging;
}
