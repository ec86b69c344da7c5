import { ValidationError, type ValidationIssue } from '../errors.ts';

export const positiveOps = ['is', 'in', 'contains', 'contains_case_insensitive', 'matches'] as const;
export const negativeOps = ['not_is', 'not_in', 'not_contains', 'not_contains_case_insensitive'] as const;
export const filterOps = [...positiveOps, ...negativeOps] as const;

export type PositiveOp = (typeof positiveOps)[number];
export type NegativeOp = (typeof negativeOps)[number];
export type FilterOp = (typeof filterOps)[number];

export const negationOf: Record<NegativeOp, PositiveOp> = {
  not_is: 'is',
  not_in: 'in',
  not_contains: 'contains',
  not_contains_case_insensitive: 'contains_case_insensitive',
};

export type LeafValue = string | number | boolean | readonly (string | number | boolean)[];

export type FilterNode =
  | { readonly kind: 'leaf'; readonly field: string; readonly op: FilterOp; readonly value: LeafValue }
  | { readonly kind: 'and' | 'or'; readonly children: readonly FilterNode[] }
  | { readonly kind: 'not'; readonly child: FilterNode };

export type WireFilter =
  | { field: string; op: string; value: unknown }
  | { and: WireFilter[] }
  | { or: WireFilter[] }
  | { not: WireFilter };

export interface FilterLimits {
  readonly maxDepth: number;
  readonly maxNodes: number;
  readonly maxValues: number;
}

export const defaultFilterLimits: FilterLimits = { maxDepth: 8, maxNodes: 200, maxValues: 1000 };

type Loc = (string | number)[];

const leafKeys = ['field', 'op', 'value'];
const groupKeys = ['and', 'or', 'not'];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Parses a wire FilterNode. Unknown keys are rejected at every level; a group has exactly one of
 * `and`, `or`, `not`. Depth is counted in groups: a single leaf has depth 0, `{and: [leaf]}` depth 1.
 */
export function parseFilter(input: unknown, loc: Loc, limits: FilterLimits = defaultFilterLimits): FilterNode {
  const issues: ValidationIssue[] = [];
  let nodes = 0;
  const walk = (v: unknown, at: Loc, depth: number): FilterNode | undefined => {
    nodes++;
    if (!isObject(v)) {
      issues.push({
        type: 'model_attributes_type',
        loc: at,
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: v,
      });
      return undefined;
    }
    const keys = Object.keys(v);
    const groups = keys.filter((k) => groupKeys.includes(k));
    const isLeaf = keys.some((k) => leafKeys.includes(k)) || groups.length === 0;
    if (isLeaf) {
      for (const k of keys)
        if (!leafKeys.includes(k))
          issues.push({ type: 'extra_forbidden', loc: [...at, k], msg: 'Extra inputs are not permitted', input: v[k] });
      for (const k of leafKeys)
        if (!(k in v)) issues.push({ type: 'missing', loc: [...at, k], msg: 'Field required', input: v });
      if ('field' in v && typeof v.field !== 'string')
        issues.push({
          type: 'string_type',
          loc: [...at, 'field'],
          msg: 'Input should be a valid string',
          input: v.field,
        });
      if ('op' in v && typeof v.op !== 'string')
        issues.push({ type: 'string_type', loc: [...at, 'op'], msg: 'Input should be a valid string', input: v.op });
      if (typeof v.field !== 'string' || typeof v.op !== 'string' || !('value' in v)) return undefined;
      if (!(filterOps as readonly string[]).includes(v.op)) {
        issues.push({
          type: 'literal_error',
          loc: [...at, 'op'],
          msg: `Input should be ${opList}`,
          input: v.op,
          ctx: { expected: opList },
        });
        return undefined;
      }
      const value = leafValue(v.value, [...at, 'value'], limits, issues);
      return value === undefined ? undefined : { kind: 'leaf', field: v.field, op: v.op as FilterOp, value };
    }
    if (groups.length > 1) {
      issues.push(groupShapeIssue(at, v));
      return undefined;
    }
    for (const k of keys)
      if (k !== groups[0])
        issues.push({ type: 'extra_forbidden', loc: [...at, k], msg: 'Extra inputs are not permitted', input: v[k] });
    if (depth + 1 > limits.maxDepth) {
      issues.push(depthIssue(at, v, limits.maxDepth));
      return undefined;
    }
    const kind = groups[0] as 'and' | 'or' | 'not';
    if (kind === 'not') {
      const child = walk(v.not, [...at, 'not'], depth + 1);
      return child && { kind, child };
    }
    const list = v[kind];
    if (!Array.isArray(list)) {
      issues.push({ type: 'list_type', loc: [...at, kind], msg: 'Input should be a valid list', input: list });
      return undefined;
    }
    if (list.length === 0) {
      issues.push({
        type: 'too_short',
        loc: [...at, kind],
        msg: 'List should have at least 1 item after validation, not 0',
        input: list,
        ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
      });
      return undefined;
    }
    const children = list.map((c, i) => walk(c, [...at, kind, i], depth + 1));
    return children.every((c): c is FilterNode => c !== undefined) ? { kind, children } : undefined;
  };
  const node = walk(input, loc, 0);
  if (nodes > limits.maxNodes) {
    throw ValidationError.of(loc, `the filter has ${nodes} nodes; at most ${limits.maxNodes} are allowed`, input);
  }
  if (issues.length > 0 || !node) throw new ValidationError(issues);
  return node;
}

const opList = filterOps
  .map((o) => `'${o}'`)
  .join(', ')
  .replace(/, ([^,]*)$/, ' or $1');

function groupShapeIssue(loc: Loc, input: unknown): ValidationIssue {
  const msg = 'a filter group has exactly one of and, or, not';
  return { type: 'value_error', loc, msg: `Value error, ${msg}`, input, ctx: { error: msg } };
}

function depthIssue(loc: Loc, input: unknown, max: number): ValidationIssue {
  const msg = `filter nesting is at most ${max} levels deep`;
  return { type: 'value_error', loc, msg: `Value error, ${msg}`, input, ctx: { error: msg } };
}

function leafValue(v: unknown, loc: Loc, limits: FilterLimits, issues: ValidationIssue[]): LeafValue | undefined {
  const scalar = (x: unknown) =>
    typeof x === 'string' || typeof x === 'boolean' || (typeof x === 'number' && Number.isFinite(x));
  if (scalar(v)) return v as LeafValue;
  if (Array.isArray(v)) {
    if (v.length > limits.maxValues) {
      issues.push({
        type: 'too_long',
        loc,
        msg: `List should have at most ${limits.maxValues} items after validation, not ${v.length}`,
        input: v,
        ctx: { field_type: 'List', max_length: limits.maxValues, actual_length: v.length },
      });
      return undefined;
    }
    const bad = v.findIndex((x) => !scalar(x));
    if (bad >= 0) {
      issues.push({ type: 'string_type', loc: [...loc, bad], msg: 'Input should be a valid string', input: v[bad] });
      return undefined;
    }
    return v as LeafValue;
  }
  issues.push({ type: 'string_type', loc, msg: 'Input should be a valid string', input: v });
  return undefined;
}

/** Flattens nested groups of the same kind, unwraps one-child groups and double negations. Idempotent. */
export function normalize(node: FilterNode): FilterNode {
  switch (node.kind) {
    case 'leaf':
      return node;
    case 'not': {
      const child = normalize(node.child);
      return child.kind === 'not' ? child.child : { kind: 'not', child };
    }
    case 'and':
    case 'or': {
      const children = node.children.map(normalize).flatMap((c) => (c.kind === node.kind ? c.children : [c]));
      return children.length === 1 ? children[0]! : { kind: node.kind, children };
    }
  }
}

export function toWire(node: FilterNode): WireFilter {
  switch (node.kind) {
    case 'leaf':
      return { field: node.field, op: node.op, value: Array.isArray(node.value) ? [...node.value] : node.value };
    case 'not':
      return { not: toWire(node.child) };
    case 'and':
      return { and: node.children.map(toWire) };
    case 'or':
      return { or: node.children.map(toWire) };
  }
}

export function depthOf(node: FilterNode): number {
  switch (node.kind) {
    case 'leaf':
      return 0;
    case 'not':
      return 1 + depthOf(node.child);
    default:
      return 1 + Math.max(...node.children.map(depthOf));
  }
}

export function leaves(node: FilterNode): Extract<FilterNode, { kind: 'leaf' }>[] {
  switch (node.kind) {
    case 'leaf':
      return [node];
    case 'not':
      return leaves(node.child);
    default:
      return node.children.flatMap(leaves);
  }
}

export const and = (children: FilterNode[]): FilterNode | null =>
  children.length === 0 ? null : children.length === 1 ? children[0]! : { kind: 'and', children };
