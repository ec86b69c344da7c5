import type { ColumnBatch, RowShape, ScalarType, ShapeNode, ValueType } from './row-shape.ts';

/**
 * Rows as the spec's JSON, built once in JS from typed columns. A shape compiles to one writer per
 * batch: every column array is looked up once, then each row is a string concatenation.
 */
export type RowWriter = (batch: ColumnBatch) => (row: number) => string;
export type RowReader = (batch: ColumnBatch) => (row: number) => unknown;

const isoDay = (v: Date) => v.toISOString().slice(0, 10);
const isoSecond = (v: Date) => `${v.toISOString().slice(0, 19)}Z`;

/** The JS value a scalar shows as in JSON: days and instants as text, 64-bit integers as numbers, non-finite floats as null. */
export function scalarValue(type: ScalarType, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (type) {
    case 'integer':
    case 'float':
      if (typeof v === 'bigint') return Number(v);
      return typeof v === 'number' && !Number.isFinite(v) ? null : v;
    case 'date':
      return v instanceof Date ? isoDay(v) : v;
    case 'instant':
      return v instanceof Date ? isoSecond(v) : v;
    default:
      return v;
  }
}

/** Compiles a value type into a writer of its compact JSON text. */
export function valueText(type: ValueType): (v: unknown) => string {
  if (typeof type === 'string') {
    if (type === 'text') return (v) => (v === null || v === undefined ? 'null' : JSON.stringify(v));
    if (type === 'boolean') return (v) => (v === null || v === undefined ? 'null' : v ? 'true' : 'false');
    return (v) => {
      const s = scalarValue(type, v);
      return s === null ? 'null' : typeof s === 'number' ? String(s) : JSON.stringify(s);
    };
  }
  if ('list' in type) {
    const item = valueText(type.list);
    return (v) => (v === null || v === undefined ? 'null' : `[${(v as unknown[]).map(item).join(',')}]`);
  }
  const fields = type.struct.map((f) => ({
    prefix: JSON.stringify(f.name) + ':',
    write: valueText(f.type),
    name: f.name,
  }));
  return (v) => {
    if (v === null || v === undefined) return 'null';
    const o = v as Record<string, unknown>;
    let out = '{';
    for (let i = 0; i < fields.length; i++)
      out += (i === 0 ? '' : ',') + fields[i]!.prefix + fields[i]!.write(o[fields[i]!.name]);
    return out + '}';
  };
}

function valueJs(type: ValueType): (v: unknown) => unknown {
  if (typeof type === 'string') return (v) => scalarValue(type, v);
  if ('list' in type) {
    const item = valueJs(type.list);
    return (v) => (v === null || v === undefined ? null : (v as unknown[]).map(item));
  }
  const fields = type.struct.map((f) => ({ name: f.name, read: valueJs(f.type) }));
  return (v) => {
    if (v === null || v === undefined) return null;
    const o = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const f of fields) out[f.name] = f.read(o[f.name]);
    return out;
  };
}

type Bound<T> = (batch: ColumnBatch) => (row: number) => T;

/** A column of a batch; a missing one is a bug of the report's rows query. */
export const column = (batch: ColumnBatch, name: string): readonly unknown[] => {
  const values = batch.columns[name];
  if (!values) throw new Error(`the rows query returned no column "${name}"`);
  return values;
};

/** A `wire: 'json'` column's value: its JSON text parsed. */
export const parsed = (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as unknown) : v);

function nodeText(node: ShapeNode): Bound<string> {
  if (node.kind === 'value') {
    const typed = valueText(node.type);
    const write = node.wire === 'json' ? (v: unknown) => typed(parsed(v)) : typed;
    return (batch) => {
      const values = column(batch, node.column);
      return (i) => write(values[i]);
    };
  }
  const parts = (node.kind === 'object' ? node.fields : node.items).map((f) => ({
    prefix: node.kind === 'object' ? JSON.stringify(f.name) + ':' : '',
    text: nodeText(f.node),
  }));
  const [open, close] = node.kind === 'object' ? ['{', '}'] : ['[', ']'];
  const nullWhen = node.kind === 'object' ? node.nullWhen : undefined;
  return (batch) => {
    const bound = parts.map((p) => ({ prefix: p.prefix, text: p.text(batch) }));
    const guard = nullWhen ? column(batch, nullWhen) : undefined;
    return (i) => {
      if (guard && (guard[i] === null || guard[i] === undefined)) return 'null';
      let out = open;
      for (let j = 0; j < bound.length; j++) out += (j === 0 ? '' : ',') + bound[j]!.prefix + bound[j]!.text(i);
      return out + close;
    };
  };
}

function nodeJs(node: ShapeNode): Bound<unknown> {
  if (node.kind === 'value') {
    const typed = valueJs(node.type);
    const read = node.wire === 'json' ? (v: unknown) => typed(parsed(v)) : typed;
    return (batch) => {
      const values = column(batch, node.column);
      return (i) => read(values[i]);
    };
  }
  if (node.kind === 'array') {
    const items = node.items.map((f) => nodeJs(f.node));
    return (batch) => {
      const bound = items.map((b) => b(batch));
      return (i) => bound.map((b) => b(i));
    };
  }
  const fields = node.fields.map((f) => ({ name: f.name, read: nodeJs(f.node) }));
  return (batch) => {
    const bound = fields.map((f) => ({ name: f.name, read: f.read(batch) }));
    const guard = node.nullWhen ? column(batch, node.nullWhen) : undefined;
    return (i) => {
      if (guard && (guard[i] === null || guard[i] === undefined)) return null;
      const out: Record<string, unknown> = {};
      for (const f of bound) out[f.name] = f.read(i);
      return out;
    };
  };
}

/** Compiles a shape into a writer of each row's compact JSON text. */
export function rowWriter(shape: RowShape): RowWriter {
  return nodeText({ kind: 'object', fields: shape.fields });
}

/** Compiles a shape into a reader of each row as a plain JS object (what JSON.parse of its text would give). */
export function rowReader(shape: RowShape): RowReader {
  return nodeJs({ kind: 'object', fields: shape.fields });
}
