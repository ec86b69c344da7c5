import type { ValidationIssue } from '../errors.ts';
import { negationOf, type FilterNode, type FilterOp, type LeafValue, type PositiveOp } from './filter-node.ts';
import { regexError } from './regex-check.ts';
import { and, join, sql, type Fragment, type SqlValue } from './sql.ts';

/** What a filter may refer to in SQL besides its own values: the tenant scope of the request. */
export interface FilterScope {
  readonly organizationId: string;
  readonly categoryId?: string;
}

export interface FilterField {
  readonly ops: readonly FilterOp[];
  readonly valueType: 'string' | 'boolean' | 'number';
  /** The positive predicate of one leaf. `values` has one element except for `in`. */
  readonly match: (op: PositiveOp, values: readonly SqlValue[], scope: FilterScope) => Fragment;
}

export type FilterCatalog = Readonly<Record<string, FilterField>>;

type Loc = (string | number)[];
type Leaf = Extract<FilterNode, { kind: 'leaf' }>;

const issue = (loc: Loc, msg: string, input: unknown): ValidationIssue => ({
  type: 'value_error',
  loc,
  msg: `Value error, ${msg}`,
  input,
  ctx: { error: msg },
});

/** Checks a parsed tree against a report's fields: field known, operator allowed, value shape and type. */
export function checkFilter(node: FilterNode, catalog: FilterCatalog, loc: Loc): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const walk = (n: FilterNode, at: Loc): void => {
    switch (n.kind) {
      case 'not':
        return walk(n.child, [...at, 'not']);
      case 'and':
      case 'or':
        return n.children.forEach((c, i) => walk(c, [...at, n.kind, i]));
      case 'leaf':
        issues.push(...checkLeaf(n, catalog, at));
    }
  };
  walk(node, loc);
  return issues;
}

function checkLeaf(leaf: Leaf, catalog: FilterCatalog, at: Loc): ValidationIssue[] {
  const field = Object.prototype.hasOwnProperty.call(catalog, leaf.field) ? catalog[leaf.field] : undefined;
  if (!field) {
    const known = Object.keys(catalog)
      .map((f) => `'${f}'`)
      .join(', ');
    return [
      issue([...at, 'field'], `unknown filter field '${leaf.field}'; this report filters on ${known}`, leaf.field),
    ];
  }
  if (!field.ops.includes(leaf.op)) {
    return [
      issue(
        [...at, 'op'],
        `operator '${leaf.op}' is not allowed on field '${leaf.field}'; use one of ${field.ops.join(', ')}`,
        leaf.op,
      ),
    ];
  }
  const list = leaf.op === 'in' || leaf.op === 'not_in';
  if (list !== Array.isArray(leaf.value)) {
    const msg = list
      ? `operator '${leaf.op}' requires a list value`
      : `operator '${leaf.op}' takes a single value; use 'in' or 'not_in' for a list`;
    return [issue([...at, 'value'], msg, leaf.value)];
  }
  const values = valuesOf(leaf.value);
  if (list && values.length === 0)
    return [issue([...at, 'value'], `operator '${leaf.op}' requires a non-empty list`, leaf.value)];
  const wrong = values.findIndex((v) => typeof v !== field.valueType);
  if (wrong >= 0) {
    return [
      issue(
        list ? [...at, 'value', wrong] : [...at, 'value'],
        `field '${leaf.field}' takes ${field.valueType} values`,
        values[wrong],
      ),
    ];
  }
  if (leaf.op === 'matches') {
    const error = regexError(String(values[0]));
    if (error) return [issue([...at, 'value'], error, values[0])];
  }
  return [];
}

const valuesOf = (v: LeafValue): readonly (string | number | boolean)[] =>
  Array.isArray(v) ? v : [v as string | number | boolean];

/**
 * Compiles a checked tree to a predicate. The one NULL rule: every leaf is two-valued. A positive
 * operator never matches a missing (NULL) value; a negative operator is exactly the negation of its
 * positive one (`not_in x` ≡ `not {in x}`), so it matches NULL. `not` negates, `and`/`or` combine.
 * Hence for any filter p, the rows of p and of `not p` partition the rows, and `p IS NULL` is empty.
 */
export function compileFilter(node: FilterNode, catalog: FilterCatalog, scope: FilterScope): Fragment {
  switch (node.kind) {
    case 'and':
      return and(node.children.map((c) => compileFilter(c, catalog, scope)));
    case 'or':
      return sql`(${join(
        node.children.map((c) => sql`(${compileFilter(c, catalog, scope)})`),
        ' OR ',
      )})`;
    case 'not':
      return sql`NOT (${compileFilter(node.child, catalog, scope)})`;
    case 'leaf': {
      const field = catalog[node.field]!;
      const negative = node.op in negationOf;
      const op = negative ? negationOf[node.op as keyof typeof negationOf] : (node.op as PositiveOp);
      const positive = sql`COALESCE(${field.match(op, valuesOf(node.value) as SqlValue[], scope)}, FALSE)`;
      return negative ? sql`NOT ${positive}` : positive;
    }
  }
}
