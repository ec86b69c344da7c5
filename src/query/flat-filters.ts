import { z } from 'zod';
import { valueError, type ValidationIssue } from '../errors.ts';
import type { FilterField, FilterScope } from './filter-compiler.ts';
import {
  and,
  filterOps,
  negationOf,
  normalize,
  type FilterNode,
  type FilterOp,
  type LeafValue,
} from './filter-node.ts';
import { idOps, textOps, textPredicate, type DimensionTable } from './filter-fields.ts';
import { regexError } from './regex-check.ts';
import { canonicalUuid, uuidError } from './schema-types.ts';
import { collect, listAny, listHasAny } from './dialect.ts';
import { ident, list, sql, type Fragment, type SqlValue } from './sql.ts';

/**
 * v1 flat filters: a list of `{field, operator, value}` combined with AND. Each becomes a FilterNode
 * leaf, so the one compiler (filter-compiler.ts) and its NULL rule serve v1 and v2 alike.
 */

/** Deprecated names the official client still sends, and the field each stands for. */
export const fieldAliases: Readonly<Record<string, string>> = {
  region: 'region_id',
  model: 'model_id',
  topic: 'topic_id',
  tag: 'tag_id',
  prompt_type: 'analysis_type',
};

export interface FlatField extends FilterField {
  /** Values are UUIDs, checked and normalized as Pydantic does. */
  readonly uuid?: boolean;
  /** The filter is accepted only when this dimension is requested too. */
  readonly dimension?: string;
  /** `row` filters pick rows inside the answers in scope; they never shrink a ratio's denominator. */
  readonly stage?: 'scope' | 'row';
}

export type FlatCatalog = Readonly<Record<string, FlatField>>;

type Scalar = string | number | boolean;

export interface FlatFilter {
  readonly field: string;
  readonly operator: FilterOp;
  readonly value: Scalar | readonly Scalar[];
}

export const maxFlatFilters = 50;
export const maxFlatValues = 1000;

export const flatFiltersSchema = () =>
  z
    .array(
      z.strictObject({
        field: z.string(),
        operator: z.enum(filterOps).optional().describe('default is'),
        value: z
          .unknown()
          .describe('one value, or a list: in/not_in need a non-empty list; a list elsewhere means any of the values'),
      }),
    )
    .max(maxFlatFilters)
    .describe('combined with AND');

type Loc = readonly (string | number)[];

const own = <T>(record: Readonly<Record<string, T>>, k: string): T | undefined =>
  Object.prototype.hasOwnProperty.call(record, k) ? record[k] : undefined;

/** Reads the wire filters against a report's fields: aliases resolved, operators, values and dimensions checked. */
export function readFlatFilters(
  input: readonly { field: string; operator?: FilterOp | undefined; value?: unknown }[] | null | undefined,
  catalog: FlatCatalog,
  dimensions: readonly string[],
  loc: Loc = ['body', 'filters'],
): { filters: FlatFilter[]; issues: ValidationIssue[] } {
  const filters: FlatFilter[] = [];
  const issues: ValidationIssue[] = [];
  for (const [i, raw] of (input ?? []).entries()) {
    const at = [...loc, i];
    if (!('value' in raw) || raw.value === undefined) {
      issues.push({ type: 'missing', loc: [...at, 'value'], msg: 'Field required', input: raw });
      continue;
    }
    const field = own(fieldAliases, raw.field) ?? raw.field;
    const def = own(catalog, field);
    if (!def) {
      const known = Object.keys(catalog)
        .map((f) => `'${f}'`)
        .join(', ');
      issues.push(
        valueError([...at, 'field'], `unknown filter field '${raw.field}'; this report filters on ${known}`, raw.field),
      );
      continue;
    }
    const operator = raw.operator ?? 'is';
    if (!def.ops.includes(operator)) {
      issues.push(
        valueError(
          [...at, 'operator'],
          `operator '${operator}' is not allowed on field '${field}'; use one of ${def.ops.join(', ')}`,
          operator,
        ),
      );
      continue;
    }
    if (def.dimension && !dimensions.includes(def.dimension)) {
      issues.push(
        valueError(
          [...at, 'field'],
          `a filter on '${field}' requires '${def.dimension}' among the dimensions`,
          raw.field,
        ),
      );
      continue;
    }
    const value = readValue(field, def, operator, raw.value, [...at, 'value'], issues);
    if (value !== undefined) filters.push({ field, operator, value });
  }
  return { filters, issues };
}

function readValue(
  field: string,
  def: FlatField,
  operator: FilterOp,
  raw: unknown,
  at: Loc,
  issues: ValidationIssue[],
): FlatFilter['value'] | undefined {
  const listOp = operator === 'in' || operator === 'not_in';
  if (!Array.isArray(raw)) {
    if (listOp) {
      issues.push(valueError(at, `operator '${operator}' requires a non-empty list value`, raw));
      return undefined;
    }
    return readScalar(field, def, operator, raw, at, issues);
  }
  if (raw.length === 0) {
    issues.push(valueError(at, `operator '${operator}' requires a non-empty list value`, raw));
    return undefined;
  }
  if (raw.length > maxFlatValues) {
    issues.push({
      type: 'too_long',
      loc: at,
      msg: `List should have at most ${maxFlatValues} items after validation, not ${raw.length}`,
      input: raw,
      ctx: { field_type: 'List', max_length: maxFlatValues, actual_length: raw.length },
    });
    return undefined;
  }
  const values = raw.map((v, j) => readScalar(field, def, operator, v, [...at, j], issues));
  return values.every((v): v is Scalar => v !== undefined) ? values : undefined;
}

function readScalar(
  field: string,
  def: FlatField,
  operator: FilterOp,
  v: unknown,
  at: Loc,
  issues: ValidationIssue[],
): Scalar | undefined {
  if (typeof v !== def.valueType || (typeof v === 'number' && !Number.isFinite(v))) {
    issues.push(valueError(at, `field '${field}' takes ${def.valueType} values`, v));
    return undefined;
  }
  if (def.uuid) {
    const error = uuidError(v as string);
    if (error) {
      issues.push({
        type: 'uuid_parsing',
        loc: at,
        msg: `Input should be a valid UUID, ${error}`,
        input: v,
        ctx: { error },
      });
      return undefined;
    }
    return canonicalUuid(v as string);
  }
  if (operator === 'matches') {
    const error = regexError(v as string);
    if (error) {
      issues.push(valueError(at, error, v));
      return undefined;
    }
  }
  return v as Scalar;
}

const leaf = (field: string, op: FilterOp, value: LeafValue): FilterNode => ({ kind: 'leaf', field, op, value });

/**
 * One flat filter as a FilterNode. A list under a one-value operator means any of the values:
 * `is [a, b]` is `in [a, b]`, `contains [a, b]` is `contains a or contains b`, and each negative
 * operator stays the exact negation of its positive one (`not_contains [a, b]` is
 * `not (contains a or contains b)`).
 */
function nodeOf(f: FlatFilter): FilterNode {
  if (!Array.isArray(f.value) || f.operator === 'in' || f.operator === 'not_in')
    return leaf(f.field, f.operator, f.value as LeafValue);
  const values = f.value as readonly Scalar[];
  if (f.operator === 'is') return leaf(f.field, 'in', values);
  if (f.operator === 'not_is') return leaf(f.field, 'not_in', values);
  const negative = f.operator in negationOf;
  const positive = negative ? negationOf[f.operator as keyof typeof negationOf] : f.operator;
  const any: FilterNode = { kind: 'or', children: values.map((v) => leaf(f.field, positive, v)) };
  return negative ? { kind: 'not', child: any } : any;
}

/** The AND of the filters as one normalized FilterNode, or null when there are none. */
export function flatToNode(filters: readonly FlatFilter[]): FilterNode | null {
  const node = and(filters.map(nodeOf));
  return node && normalize(node);
}

export const filtersAt = (filters: readonly FlatFilter[], catalog: FlatCatalog, stage: 'scope' | 'row'): FlatFilter[] =>
  filters.filter((f) => (catalog[f.field]?.stage ?? 'scope') === stage);

function scopeOf(dim: DimensionTable, scope: FilterScope): Fragment {
  if (dim.scope === 'global') return sql`TRUE`;
  if (dim.scope === 'category' && scope.categoryId) return sql`category_id = ${scope.categoryId}`;
  return sql`organization_id = ${scope.organizationId}`;
}

/** The ids of the dimension rows whose name the leaf matches (v1 `_name` fields match names only). */
const idsNamed = (
  dim: DimensionTable,
  op: Parameters<FilterField['match']>[0],
  values: readonly SqlValue[],
  scope: FilterScope,
): Fragment =>
  sql`SELECT id FROM ${ident(dim.table)} WHERE ${scopeOf(dim, scope)} AND ${textPredicate(ident(dim.name), op, values)}`;

/** A column holding one UUID, compared with UUID values. */
export const idField = (column: Fragment, extra: Partial<FlatField> = {}): FlatField => ({
  ops: idOps,
  valueType: 'string',
  uuid: true,
  match: (op, values) => textPredicate(column, op, values),
  ...extra,
});

/** A column holding a dimension id, matched through the dimension's name. */
export const nameField = (column: Fragment, dim: DimensionTable, extra: Partial<FlatField> = {}): FlatField => ({
  ops: textOps,
  valueType: 'string',
  match: (op, values, scope) => sql`${column} IN (${idsNamed(dim, op, values, scope)})`,
  ...extra,
});

/** A list of dimension ids (a prompt's tags): matches when any id is one of the values. */
export const idSetField = (listColumn: Fragment): FlatField => ({
  ops: idOps,
  valueType: 'string',
  uuid: true,
  match: (_op, values) => listHasAny(listColumn, sql`[${list(values)}]`),
});

/** A list of dimension ids matched through their names: matches when any named id matches. */
export const nameSetField = (listColumn: Fragment, dim: DimensionTable): FlatField => ({
  ops: textOps,
  valueType: 'string',
  match: (op, values, scope) =>
    listHasAny(listColumn, sql`(SELECT ${collect(sql`id`)} FROM (${idsNamed(dim, op, values, scope)}))`),
});

/** A list of plain strings (a prompt's analysis types): matches when any element matches. */
export const textSetField = (listColumn: Fragment): FlatField => ({
  ops: textOps,
  valueType: 'string',
  match: (op, values) => listAny(listColumn, 'flat_item', textPredicate(sql`flat_item`, op, values)),
});

/** A plain text column. */
export const plainField = (column: Fragment, extra: Partial<FlatField> = {}): FlatField => ({
  ops: textOps,
  valueType: 'string',
  match: (op, values) => textPredicate(column, op, values),
  ...extra,
});
