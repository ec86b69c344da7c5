import { loopTurn } from '../query/loop-turns.ts';
import { sliceBatch } from '../engine/column-reads.ts';
import type { ColumnBatch, RowShape, ScalarType, ShapeField, ShapeNode, ValueType, Wire } from '../query/row-shape.ts';
import { column, parsed, scalarValue, valueText } from '../query/row-json.ts';
import type { RowsResult } from '../query/rows-result.ts';
import { openRows } from './json.ts';

/**
 * A row shape as a table: every fixed array becomes an object whose fields are its items (`metrics`
 * becomes `{visits, last_visit}`), so each column of a typed format has a name and one type.
 */
export function tableShape(shape: RowShape): RowShape {
  const node = (n: ShapeNode): ShapeNode =>
    n.kind === 'value'
      ? n
      : n.kind === 'object'
        ? { ...n, fields: n.fields.map(fieldOf) }
        : { kind: 'object', fields: n.items.map(fieldOf) };
  const fieldOf = (f: ShapeField): ShapeField => ({ name: f.name, node: node(f.node) });
  return { fields: shape.fields.map(fieldOf) };
}

/** One column of a flat table: a value at a dotted path, null when any enclosing object is null. */
export interface FlatColumn {
  readonly path: string;
  readonly column: string;
  readonly type: ValueType;
  readonly wire?: Wire;
  /** The `nullWhen` columns of the objects around the value. */
  readonly guards: readonly string[];
  /** Inside a struct value (a reference `{id, name}`): the fields leading to this leaf; null when any is null. */
  readonly within?: readonly string[];
}

/**
 * The leaves of a shape in order, objects, arrays and struct values flattened into dotted paths
 * (`asset.name`, `metrics.visits`, `model.id`): a reference `{id, name}` is two columns whether the
 * report assembles it from columns or reads it as one struct. A list stays one column.
 */
export function flatColumns(shape: RowShape): FlatColumn[] {
  const out: FlatColumn[] = [];
  const leaf = (
    path: string,
    node: Extract<ShapeNode, { kind: 'value' }>,
    guards: readonly string[],
    type: ValueType,
    within: readonly string[],
  ): void => {
    if (typeof type !== 'string' && 'struct' in type) {
      for (const f of type.struct) leaf(`${path}.${f.name}`, node, guards, f.type, [...within, f.name]);
      return;
    }
    out.push({
      path,
      column: node.column,
      type,
      ...(node.wire ? { wire: node.wire } : {}),
      guards,
      ...(within.length > 0 ? { within } : {}),
    });
  };
  const walk = (fields: readonly ShapeField[], prefix: string, guards: readonly string[]): void => {
    for (const f of fields) {
      const path = prefix + f.name;
      const node = f.node;
      if (node.kind === 'value') leaf(path, node, guards, node.type, []);
      else if (node.kind === 'object')
        walk(node.fields, `${path}.`, node.nullWhen ? [...guards, node.nullWhen] : guards);
      else walk(node.items, `${path}.`, guards);
    }
  };
  walk(shape.fields, '', []);
  return out;
}

/** The most rows one encoded piece holds: a larger batch (a big page) is encoded in slices, each in the process's loop budget. */
export const sliceRows = 2048;

/**
 * A rows result read as its head, then slices of at most `sliceRows` rows, each handed on within the
 * process's loop budget (`loopTurn`). Stopping early (return) stops the read and interrupts its query.
 */
export async function* slices(
  result: RowsResult,
): AsyncGenerator<{ head: Record<string, unknown> } | { batch: ColumnBatch }> {
  const { head, batches, close } = await openRows(result);
  try {
    yield { head };
    for await (const batch of batches) {
      for (let from = 0; from < batch.length; from += sliceRows) {
        await loopTurn();
        yield { batch: sliceBatch(batch, from, from + sliceRows) };
      }
    }
  } finally {
    await close();
  }
}

/**
 * A flat column's value as text, as the JSON shows it (a list as its JSON text), or null: NULL, or any
 * object around it null. CSV quotes it; the CLI's table pads it.
 */
export function flatText(c: FlatColumn): (batch: ColumnBatch) => (row: number) => string | null {
  const list = typeof c.type === 'string' ? undefined : valueText(c.type);
  const text = (v: unknown): string | null => {
    if (v === null || v === undefined) return null;
    if (list) return list(v);
    const s = scalarValue(c.type as ScalarType, v);
    return s === null ? null : String(s);
  };
  const dig = (v: unknown): unknown =>
    (c.within ?? []).reduce(
      (o, name) => (o === null || o === undefined ? null : (o as Record<string, unknown>)[name]),
      v,
    );
  const read = (v: unknown) => text(dig(c.wire === 'json' ? parsed(v) : v));
  return (batch) => {
    const values = column(batch, c.column);
    const guards = c.guards.map((g) => batch.columns[g] ?? []);
    return (i) => (guards.some((g) => g[i] === null || g[i] === undefined) ? null : read(values[i]));
  };
}
