import {
  Bool,
  DateDay,
  Field,
  Float64,
  Int32,
  Int64,
  List,
  Table,
  TimestampMillisecond,
  Utf8,
  vectorFromArray,
  type DataType,
} from 'apache-arrow';
import type { ColumnType } from '../../src/model/column.ts';
import { tableNames, tables, type TableName } from '../../src/model/tables.ts';
import { openEngine } from '../../src/open-engine.ts';
import { type Engine, type EngineOptions } from '../../src/library/engine.ts';

export type Row = Record<string, unknown>;
export type Rows = Partial<Record<TableName, Row[]>>;

const arrowType = (t: ColumnType): DataType => {
  switch (t) {
    case 'VARCHAR':
    case 'UUID':
      return new Utf8();
    case 'BOOLEAN':
      return new Bool();
    case 'INTEGER':
      return new Int32();
    case 'BIGINT':
      return new Int64();
    case 'DOUBLE':
      return new Float64();
    case 'DATE':
      return new DateDay();
    case 'TIMESTAMPTZ':
      return new TimestampMillisecond('UTC');
    case 'VARCHAR[]':
      return new List(new Field('item', new Utf8(), true));
  }
};

const toValue = (t: ColumnType, v: unknown): unknown => {
  if (v === null || v === undefined) return null;
  if (t === 'DATE') return new Date(`${String(v)}T00:00:00Z`);
  if (t === 'TIMESTAMPTZ') return v instanceof Date ? v : new Date(String(v));
  if (t === 'BIGINT') return BigInt(v as number);
  return v;
};

/** Every contract table as an Arrow table; tables without rows are empty but typed. */
export function arrowTables(rows: Rows): Record<TableName, Table> {
  const out = {} as Record<TableName, Table>;
  for (const name of tableNames) {
    const data = rows[name] ?? [];
    const columns: Record<string, ReturnType<typeof vectorFromArray>> = {};
    for (const [column, def] of Object.entries(tables[name].columns)) {
      columns[column] = vectorFromArray(
        data.map((r) => toValue(def.type, r[column])) as never[],
        arrowType(def.type),
      ) as never;
    }
    out[name] = new Table(columns);
  }
  return out;
}

export function openFixture(rows: Rows, options: Omit<EngineOptions, 'tables' | 'data'> = {}): Promise<Engine> {
  return openEngine({ ...options, tables: arrowTables(rows), threads: 1, connections: 2 });
}
