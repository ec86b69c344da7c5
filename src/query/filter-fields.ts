import type { FilterField, FilterScope } from './filter-compiler.ts';
import type { FilterOp, PositiveOp } from './filter-node.ts';
import { collect, listHasAny, lowerText, textContains } from './dialect.ts';
import { ident, list, sql, type Fragment, type SqlValue } from './sql.ts';

export const idOps: readonly FilterOp[] = ['is', 'not_is', 'in', 'not_in'];
export const textOps: readonly FilterOp[] = [
  'is',
  'not_is',
  'in',
  'not_in',
  'contains',
  'not_contains',
  'matches',
  'contains_case_insensitive',
  'not_contains_case_insensitive',
];

/** A dimension table a filter value may name by id or by name, and how far its rows are shared. */
export interface DimensionTable {
  readonly table: string;
  readonly name: string;
  readonly scope: 'global' | 'organization' | 'category';
}

/** `expr` compared with the values: equality, membership, substring (optionally case-insensitive) or RE2 match. */
export function textPredicate(expr: Fragment, op: PositiveOp, values: readonly SqlValue[]): Fragment {
  const v = values[0] ?? null;
  switch (op) {
    case 'is':
      return sql`${expr} = ${v}`;
    case 'in':
      return sql`${expr} IN (${list(values)})`;
    case 'contains':
      return textContains(expr, sql`${v}`);
    case 'contains_case_insensitive':
      return textContains(lowerText(expr), lowerText(sql`${v}`));
    case 'matches':
      return sql`regexp_matches(${expr}, ${v})`;
  }
}

function scopePredicate(dim: DimensionTable, scope: FilterScope): Fragment {
  if (dim.scope === 'global') return sql`TRUE`;
  if (dim.scope === 'category' && scope.categoryId) return sql`category_id = ${scope.categoryId}`;
  return sql`organization_id = ${scope.organizationId}`;
}

/** The ids of the dimension rows a leaf selects: by id or name for is/in, by name for the text operators. */
export function selectedIds(
  dim: DimensionTable,
  op: PositiveOp,
  values: readonly SqlValue[],
  scope: FilterScope,
): Fragment {
  const name = ident(dim.name);
  const predicate =
    op === 'is' || op === 'in'
      ? sql`(id IN (${list(values)}) OR ${name} IN (${list(values)}))`
      : textPredicate(name, op, values);
  return sql`SELECT id FROM ${ident(dim.table)} WHERE ${scopePredicate(dim, scope)} AND ${predicate}`;
}

/** A fact column holding one dimension id (NULL when absent). */
export function refField(column: Fragment, dim: DimensionTable, ops: readonly FilterOp[] = idOps): FilterField {
  return {
    ops,
    valueType: 'string',
    match: (op, values, scope) => sql`${column} IN (${selectedIds(dim, op, values, scope)})`,
  };
}

/** A list column holding several dimension ids: matches when any of them is selected. */
export function setRefField(listColumn: Fragment, dim: DimensionTable, ops: readonly FilterOp[] = idOps): FilterField {
  return {
    ops,
    valueType: 'string',
    match: (op, values, scope) =>
      listHasAny(listColumn, sql`(SELECT ${collect(sql`id`)} FROM (${selectedIds(dim, op, values, scope)}))`),
  };
}

/** A plain text column compared directly. */
export function textField(column: Fragment, ops: readonly FilterOp[] = textOps): FilterField {
  return { ops, valueType: 'string', match: (op, values) => textPredicate(column, op, values) };
}
