import type { ColumnBatch, RowShape, ScalarType, ShapeNode, ValueType } from './row-shape.ts';
import { boundedMemo } from './bounded-memo.ts';

/**
 * Rows as the spec's JSON, built once in JS from typed columns. A shape compiles to one writer per
 * batch: every column array is looked up once, then each row is a string concatenation.
 */
export type RowWriter = (batch: ColumnBatch) => (row: number) => string;
export type RowReader = (batch: ColumnBatch) => (row: number) => unknown;

const isoDay = (v: Date) => v.toISOString().slice(0, 10);
const isoSecond = (v: Date) => `${v.toISOString().slice(0, 19)}Z`;

/**
 * The most distinct days `dayText` keeps: a year of days many times over; past it the cache starts
 * again, so a result spanning centuries costs a toISOString per day, never unbounded memory.
 */
export const dayCacheSize = 8192;
/** A cache of one text per distinct day, dropped whole when it reaches `dayCacheSize`. */
const perDay = (format: (v: Date) => string): ((v: Date) => string) =>
  boundedMemo(dayCacheSize, (v: Date) => v.getTime(), format);

/** A day's `YYYY-MM-DD`, formatted once per distinct day: a stream writes the same few hundred days many times. */
export const dayText = perDay(isoDay);

/** A day as a JSON string, `"YYYY-MM-DD"`. */
const dayJson = perDay((v) => `"${isoDay(v)}"`);

/** The JS value a scalar shows as in JSON: days and instants as text, 64-bit integers as numbers, non-finite floats as null. */
export function scalarValue(type: ScalarType, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (type) {
    case 'integer':
    case 'float':
      if (typeof v === 'bigint') return Number(v);
      return typeof v === 'number' && !Number.isFinite(v) ? null : v;
    case 'date':
      return v instanceof Date ? dayText(v) : v;
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

/** Compiles a shape into a reader of each row as a plain JS object (what JSON.parse of its text would give). */
export function rowReader(shape: RowShape): RowReader {
  return nodeJs({ kind: 'object', fields: shape.fields });
}

/**
 * Rows `from` until `to` of a batch written as one string: each row's compact JSON text with `before`
 * ahead of it (`first` ahead of the first row instead) and `after` behind it. A page joins rows with
 * `first: ''`, `before: ','`; an NDJSON piece sets `after: '\n'`; SSE frames each row as an event.
 */
export type RowsWriter = (batch: ColumnBatch, frame: RowFrame, from?: number, to?: number) => string;

export interface RowFrame {
  readonly first: string;
  readonly before: string;
  readonly after: string;
}

/** Each row of a batch as its own JSON text (a stream's events). */
export type RowsTexts = (batch: ColumnBatch, from?: number, to?: number) => string[];

/**
 * The most distinct texts one writer's cache of repeated values keeps (names, ids, paths crossing as
 * dictionary codes); past it the cache starts again.
 */
export const repeatedCacheSize = 4096;

/** A cache of JSON texts for text that repeats across rows: the same dictionary entries, quoted once each. */
function repeatedTexts(): (v: string) => string {
  const texts = new Map<string, string>();
  return (v) => {
    let text = texts.get(v);
    if (text === undefined) {
      text = JSON.stringify(v);
      if (texts.size >= repeatedCacheSize) texts.clear();
      texts.set(v, text);
    }
    return text;
  };
}

/** Lists whose every item is null or of one JS type, by the item's scalar type: JSON.stringify writes them as valueText does. */
const itemTypes = { text: 'texts', integer: 'numbers', float: 'numbers', boolean: 'booleans' } as const;
const listOf =
  (type: string) =>
  (v: unknown): boolean => {
    if (!Array.isArray(v)) return false;
    for (const x of v) if (x !== null && typeof x !== type) return false;
    return true;
  };

/** A JS string literal of a constant text, for the generated source. */
const lit = (s: string) => JSON.stringify(s);

/**
 * The source of one row's JSON text as a JS expression over the bound columns `c0…` at row `i`, and the
 * columns, caches and slow paths it uses. Constant parts (names, braces, commas) merge into literals.
 */
class RowSource {
  readonly columns: string[] = [];
  readonly slow: ((v: unknown) => string)[] = [];
  caches = 0;
  private parts: string[] = [];
  private pending = '';

  private col(name: string): string {
    let k = this.columns.indexOf(name);
    if (k < 0) k = this.columns.push(name) - 1;
    return `c${k}`;
  }

  private expr(e: string): void {
    if (this.pending) this.parts.push(lit(this.pending));
    this.pending = '';
    this.parts.push(e);
  }

  /** What `build` writes, as one expression of its own. */
  private sub(build: () => void): string {
    const [parts, pending] = [this.parts, this.pending];
    this.parts = [];
    this.pending = '';
    build();
    if (this.pending) this.parts.push(lit(this.pending));
    const e = this.parts.length > 0 ? this.parts.join(' + ') : "''";
    this.parts = parts;
    this.pending = pending;
    return e;
  }

  private slowPath(write: (v: unknown) => string): string {
    return `h.slow[${this.slow.push(write) - 1}]`;
  }

  private value(node: Extract<ShapeNode, { kind: 'value' }>): void {
    const v = `${this.col(node.column)}[i]`;
    const items = typeof node.type !== 'string' && 'list' in node.type ? node.type.list : undefined;
    if (node.wire === 'json' && typeof items === 'string' && items in itemTypes) {
      // A list of scalars as JSON text is parsed (the backend's JSON writing must not matter) and, when
      // every item has its type, written back by JSON.stringify: for such a list, the same text valueText writes.
      const typed = valueText(node.type);
      const slow = this.slowPath((x) => typed(parsed(x)));
      const test = itemTypes[items as keyof typeof itemTypes];
      this.expr(
        `((v = ${v}) == null ? 'null' : typeof v === 'string' && h.${test}(v = JSON.parse(v)) ? JSON.stringify(v) : ${slow}(${v}))`,
      );
      return;
    }
    if (node.wire === 'json' || typeof node.type !== 'string') {
      const typed = valueText(node.type);
      this.expr(`${this.slowPath(node.wire === 'json' ? (x) => typed(parsed(x)) : typed)}(${v})`);
      return;
    }
    const slow = `${this.slowPath(valueText(node.type))}(v)`;
    const guarded = (fast: string) => this.expr(`((v = ${v}) == null ? 'null' : ${fast} : ${slow})`);
    switch (node.type) {
      case 'text':
        return guarded(`typeof v === 'string' ? ${node.wire === 'dictionary' ? `r${this.caches++}(v)` : 'h.str(v)'}`);
      case 'boolean':
        return guarded(`typeof v === 'boolean' ? (v ? 'true' : 'false')`);
      case 'integer':
      case 'float':
        // TRICKY: `'' + v` is String(v); `v - v === 0` holds for finite numbers only, so NaN and ±Infinity write null, as JSON.stringify does.
        return guarded(
          `typeof v === 'number' ? (v - v === 0 ? '' + v : 'null') : typeof v === 'bigint' ? '' + Number(v)`,
        );
      case 'date':
        return guarded(`v instanceof Date ? h.day(v)`);
      case 'instant':
        return guarded(`v instanceof Date ? h.second(v)`);
    }
  }

  private node(node: ShapeNode): void {
    if (node.kind === 'value') return this.value(node);
    const object = node.kind === 'object';
    const braced = () => {
      this.pending += object ? '{' : '[';
      (object ? node.fields : node.items).forEach((f, j) => {
        this.pending += (j === 0 ? '' : ',') + (object ? JSON.stringify(f.name) + ':' : '');
        this.node(f.node);
      });
      this.pending += object ? '}' : ']';
    };
    if (!object || !node.nullWhen) return braced();
    const inner = this.sub(braced);
    this.expr(`(${this.col(node.nullWhen)}[i] == null ? 'null' : ${inner})`);
  }

  /** The whole row's expression. */
  row(shape: RowShape): string {
    return this.sub(() => this.node({ kind: 'object', fields: shape.fields }));
  }
}

/** Each row of a batch bound once: the text of row `i`. */
type RowText = (batch: ColumnBatch) => (i: number) => string;

export interface CompiledRows {
  readonly text: RowsWriter;
  readonly texts: RowsTexts;
  readonly one: RowText;
}

/**
 * Compiled shapes by their declaration's text: a report builds its shape object per request, and the
 * same declaration must not be compiled (and warmed up by V8) again each time. At most
 * `compiledShapes` are kept, the oldest dropped first.
 */
const compiled = new Map<string, CompiledRows>();
export const compiledShapes = 512;

/**
 * A shape compiled once into writers specialised to it: generated functions whose loop reads each column
 * array once and writes every value with its type's formatting inline, with no per-value closure, row
 * object or array. The generated source holds the shape's field names (as string literals) and column
 * indexes only: values are read from the bound columns at run time, never written into code.
 */
export function compileRows(shape: RowShape): CompiledRows {
  const key = JSON.stringify(shape);
  const known = compiled.get(key);
  if (known) return known;
  const src = new RowSource();
  const row = src.row(shape);
  const bind = [
    ...src.columns.map((name, k) => `const c${k} = h.column(batch, ${lit(name)});`),
    ...Array.from({ length: src.caches }, (_, r) => `const r${r} = h.repeated[${r}];`),
  ].join('\n');
  const helpers = {
    column,
    day: dayJson,
    second: (v: Date) => `"${isoSecond(v)}"`,
    str: (v: string) => JSON.stringify(v),
    texts: listOf('string'),
    numbers: listOf('number'),
    booleans: listOf('boolean'),
    repeated: Array.from({ length: src.caches }, repeatedTexts),
    slow: src.slow,
  };
  // TRICKY: compiled with the Function constructor from the shape's declaration; values are only read from the bound columns.
  const make = <T>(body: string): T => new Function('h', `'use strict';\n${body}`)(helpers) as T;
  const texts = make<RowsTexts>(`return function rowsTexts(batch, from = 0, to = batch.length) {
${bind}
const end = Math.min(to, batch.length);
const out = new Array(Math.max(0, end - from));
let v;
for (let i = from; i < end; i++) out[i - from] = ${row};
return out;
};`);
  const out: CompiledRows = {
    // Joined, not concatenated: the rows' texts die young and the piece is one flat string, where a
    // concatenated piece would be a tree of some twenty strings per row kept alive until it is written.
    text: (batch, frame, from, to) => {
      const rows = texts(batch, from, to);
      return rows.length === 0 ? '' : frame.first + rows.join(frame.after + frame.before) + frame.after;
    },
    texts,
    one: make(`return function rowText(batch) {
${bind}
return (i) => {
let v;
return ${row};
};
};`),
  };
  if (compiled.size >= compiledShapes) compiled.delete(compiled.keys().next().value!);
  compiled.set(key, out);
  return out;
}

/** Compiles a shape into a writer of each row's compact JSON text. */
export function rowWriter(shape: RowShape): RowWriter {
  return compileRows(shape).one;
}
