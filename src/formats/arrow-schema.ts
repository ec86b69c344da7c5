import {
  Bool,
  DateDay,
  Field,
  Float64,
  Int64,
  List,
  Schema,
  Struct,
  TimestampMillisecond,
  Utf8,
  type DataType,
} from 'apache-arrow';
import type { RowShape, ShapeNode, ValueType } from '../query/row-shape.ts';
import { headKey } from './format-names.ts';
import { tableShape } from './table-shape.ts';

/** The Arrow type of a value: text Utf8, integer Int64, float Float64, days Date32, instants Timestamp(ms, UTC). */
export function arrowType(type: ValueType): DataType {
  if (typeof type !== 'string') {
    if ('list' in type) return new List(new Field('item', arrowType(type.list), true));
    return new Struct(type.struct.map((f) => new Field(f.name, arrowType(f.type), true)));
  }
  switch (type) {
    case 'text':
      return new Utf8();
    case 'integer':
      return new Int64();
    case 'float':
      return new Float64();
    case 'boolean':
      return new Bool();
    case 'date':
      return new DateDay();
    case 'instant':
      return new TimestampMillisecond('UTC');
  }
}

/** The Arrow type of a node of a table shape (arrays already turned into objects): objects are structs. */
export function nodeType(node: ShapeNode): DataType {
  if (node.kind === 'value') return arrowType(node.type);
  const fields = node.kind === 'object' ? node.fields : node.items;
  return new Struct(fields.map((f) => new Field(f.name, nodeType(f.node), true)));
}

/** The schema of a result: one nullable field per top-level field of the row, the head as JSON under `aea:head`. */
export function arrowSchema(shape: RowShape, head: Record<string, unknown>): Schema {
  const table = tableShape(shape);
  return new Schema(
    table.fields.map((f) => new Field(f.name, nodeType(f.node), true)),
    new Map([[headKey, JSON.stringify(head)]]),
  );
}
