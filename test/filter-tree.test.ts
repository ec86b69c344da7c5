import { describe, expect, it } from 'vitest';
import { ValidationError, type ValidationIssue } from '../src/errors.ts';
import {
  and,
  defaultFilterLimits,
  depthOf,
  leaves,
  normalize,
  parseFilter,
  toWire,
  type FilterNode,
} from '../src/query/filter-node.ts';

/**
 * The wire filter tree (src/query/filter-node.ts) before any field is known: every issue of its shape
 * exactly as the 422 shows it, the limits at their bound and one past, and the tree's normal form.
 */

const loc = ['body', 'filter'];
const issues = (input: unknown, limits = defaultFilterLimits): readonly ValidationIssue[] => {
  try {
    parseFilter(input, loc, limits);
  } catch (e) {
    if (e instanceof ValidationError) return e.detail;
    throw e;
  }
  throw new Error('expected a ValidationError');
};
const leaf = (field = 'model', value: unknown = 'x', op = 'is') => ({ field, op, value });
const ops =
  "'is', 'in', 'contains', 'contains_case_insensitive', 'matches', 'not_is', 'not_in', 'not_contains' or 'not_contains_case_insensitive'";

describe('a filter tree’s shape', () => {
  it('a node that is no object', () => {
    for (const bad of [null, 'x', 3, [leaf()]])
      expect(issues(bad), JSON.stringify(bad)).toEqual([
        {
          type: 'model_attributes_type',
          loc,
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: bad,
        },
      ]);
    expect(issues({ and: [leaf(), 7] })).toEqual([
      {
        type: 'model_attributes_type',
        loc: [...loc, 'and', 1],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: 7,
      },
    ]);
  });

  it('a leaf: its keys, their types, its operator', () => {
    expect(issues({})).toEqual([
      { type: 'missing', loc: [...loc, 'field'], msg: 'Field required', input: {} },
      { type: 'missing', loc: [...loc, 'op'], msg: 'Field required', input: {} },
      { type: 'missing', loc: [...loc, 'value'], msg: 'Field required', input: {} },
    ]);
    expect(issues({ field: 1, op: false, value: 'x' })).toEqual([
      { type: 'string_type', loc: [...loc, 'field'], msg: 'Input should be a valid string', input: 1 },
      { type: 'string_type', loc: [...loc, 'op'], msg: 'Input should be a valid string', input: false },
    ]);
    expect(issues({ ...leaf(), extra: 2, and: [] })).toEqual([
      { type: 'extra_forbidden', loc: [...loc, 'extra'], msg: 'Extra inputs are not permitted', input: 2 },
      { type: 'extra_forbidden', loc: [...loc, 'and'], msg: 'Extra inputs are not permitted', input: [] },
    ]);
    // One bad key says one thing: the operator or the value of a leaf whose field is no text is not read further.
    expect(issues({ field: 1, op: 'equals', value: null })).toEqual([
      { type: 'string_type', loc: [...loc, 'field'], msg: 'Input should be a valid string', input: 1 },
    ]);
    expect(issues({ field: 'model', op: 5, value: null })).toEqual([
      { type: 'string_type', loc: [...loc, 'op'], msg: 'Input should be a valid string', input: 5 },
    ]);
    expect(issues({ field: 'model', op: 'is' })).toEqual([
      { type: 'missing', loc: [...loc, 'value'], msg: 'Field required', input: { field: 'model', op: 'is' } },
    ]);
    expect(issues(leaf('model', 'x', 'equals'))).toEqual([
      {
        type: 'literal_error',
        loc: [...loc, 'op'],
        msg: `Input should be ${ops}`,
        input: 'equals',
        ctx: { expected: ops },
      },
    ]);
  });

  it('a leaf’s value: a finite scalar or a list of them', () => {
    for (const good of ['x', '', 0, -1.5, true, false, [], ['a', 2, true]])
      expect(parseFilter(leaf('model', good), loc)).toEqual({ kind: 'leaf', field: 'model', op: 'is', value: good });
    for (const bad of [null, Number.NaN, Number.POSITIVE_INFINITY, { a: 1 }])
      expect(issues(leaf('model', bad)), String(bad)).toEqual([
        { type: 'string_type', loc: [...loc, 'value'], msg: 'Input should be a valid string', input: bad },
      ]);
    expect(issues(leaf('model', ['a', 'b', null, {}]))).toEqual([
      { type: 'string_type', loc: [...loc, 'value', 2], msg: 'Input should be a valid string', input: null },
    ]);
    expect(issues(leaf('model', [Number.NaN]))).toEqual([
      { type: 'string_type', loc: [...loc, 'value', 0], msg: 'Input should be a valid string', input: Number.NaN },
    ]);
  });

  it('a group: one of and, or, not; a non-empty list', () => {
    const both = { and: [leaf()], or: [leaf()] };
    expect(issues(both)).toEqual([
      {
        type: 'value_error',
        loc,
        msg: 'Value error, a filter group has exactly one of and, or, not',
        input: both,
        ctx: { error: 'a filter group has exactly one of and, or, not' },
      },
    ]);
    expect(issues({ and: [] })).toEqual([
      {
        type: 'too_short',
        loc: [...loc, 'and'],
        msg: 'List should have at least 1 item after validation, not 0',
        input: [],
        ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
      },
    ]);
    expect(issues({ or: leaf() })).toEqual([
      { type: 'list_type', loc: [...loc, 'or'], msg: 'Input should be a valid list', input: leaf() },
    ]);
    expect(issues({ not: [leaf()], x: 1 })).toEqual([
      { type: 'extra_forbidden', loc: [...loc, 'x'], msg: 'Extra inputs are not permitted', input: 1 },
      {
        type: 'model_attributes_type',
        loc: [...loc, 'not'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: [leaf()],
      },
    ]);
    expect(issues({ or: [leaf(), { field: 'a' }, leaf('b', null)] }).map((i) => i.loc)).toEqual([
      [...loc, 'or', 1, 'op'],
      [...loc, 'or', 1, 'value'],
      [...loc, 'or', 2, 'value'],
    ]);
  });
});

describe('a filter tree’s limits', () => {
  const nested = (depth: number): unknown => (depth === 0 ? leaf() : { not: nested(depth - 1) });
  const limits = { maxDepth: 3, maxNodes: 5, maxValues: 2 };

  it(`nests at most maxDepth groups (${defaultFilterLimits.maxDepth} by default)`, () => {
    expect(depthOf(parseFilter(nested(defaultFilterLimits.maxDepth), loc))).toBe(defaultFilterLimits.maxDepth);
    expect(depthOf(parseFilter(nested(3), loc, limits))).toBe(3);
    expect(issues(nested(4), limits)).toEqual([
      {
        type: 'value_error',
        loc: [...loc, 'not', 'not', 'not'],
        msg: 'Value error, filter nesting is at most 3 levels deep',
        input: { not: leaf() },
        ctx: { error: 'filter nesting is at most 3 levels deep' },
      },
    ]);
    expect(issues({ and: [leaf(), { or: [{ and: [{ or: [leaf()] }] }] }] }, limits)[0]!.loc).toEqual([
      ...loc,
      'and',
      1,
      'or',
      0,
      'and',
      0,
    ]);
  });

  it('holds at most maxNodes nodes, counting groups and leaves', () => {
    const five = { and: [leaf(), leaf(), leaf(), leaf()] };
    expect(leaves(parseFilter(five, loc, limits))).toHaveLength(4);
    const six = { and: [leaf(), leaf(), leaf(), leaf(), leaf()] };
    expect(issues(six, limits)).toEqual([
      {
        type: 'value_error',
        loc,
        msg: 'Value error, the filter has 6 nodes; at most 5 are allowed',
        input: six,
        ctx: { error: 'the filter has 6 nodes; at most 5 are allowed' },
      },
    ]);
  });

  it('a list of at most maxValues values', () => {
    expect(parseFilter(leaf('model', ['a', 'b'], 'in'), loc, limits)).toMatchObject({ value: ['a', 'b'] });
    expect(issues(leaf('model', ['a', 'b', 'c'], 'in'), limits)).toEqual([
      {
        type: 'too_long',
        loc: [...loc, 'value'],
        msg: 'List should have at most 2 items after validation, not 3',
        input: ['a', 'b', 'c'],
        ctx: { field_type: 'List', max_length: 2, actual_length: 3 },
      },
    ]);
  });
});

describe('a filter tree’s normal form', () => {
  const a: FilterNode = { kind: 'leaf', field: 'a', op: 'is', value: 1 };
  const b: FilterNode = { kind: 'leaf', field: 'b', op: 'in', value: ['x', 'y'] };
  const c: FilterNode = { kind: 'leaf', field: 'c', op: 'not_is', value: true };

  it('flattens groups of one kind, unwraps one child and double negations, keeps other groups', () => {
    expect(normalize({ kind: 'and', children: [a, { kind: 'and', children: [b, c] }] })).toEqual({
      kind: 'and',
      children: [a, b, c],
    });
    expect(normalize({ kind: 'or', children: [a, { kind: 'and', children: [b, c] }] })).toEqual({
      kind: 'or',
      children: [a, { kind: 'and', children: [b, c] }],
    });
    expect(normalize({ kind: 'or', children: [{ kind: 'or', children: [a] }] })).toEqual(a);
    expect(normalize({ kind: 'not', child: { kind: 'not', child: b } })).toEqual(b);
    expect(normalize({ kind: 'not', child: { kind: 'not', child: { kind: 'not', child: c } } })).toEqual({
      kind: 'not',
      child: c,
    });
    expect(normalize({ kind: 'not', child: { kind: 'and', children: [a] } })).toEqual({ kind: 'not', child: a });
  });

  it('as the wire form, a list copied', () => {
    const tree: FilterNode = { kind: 'or', children: [a, { kind: 'not', child: { kind: 'and', children: [b, c] } }] };
    const wire = toWire(tree);
    expect(wire).toEqual({
      or: [
        { field: 'a', op: 'is', value: 1 },
        {
          not: {
            and: [
              { field: 'b', op: 'in', value: ['x', 'y'] },
              { field: 'c', op: 'not_is', value: true },
            ],
          },
        },
      ],
    });
    expect((wire as { or: { not: { and: { value: unknown }[] } }[] }).or[1]!.not.and[0]!.value).not.toBe(
      (b as { value: unknown }).value,
    );
    expect(parseFilter(wire, loc)).toEqual(tree);
  });

  it('its depth and its leaves in order', () => {
    expect(depthOf(a)).toBe(0);
    expect(depthOf({ kind: 'not', child: a })).toBe(1);
    expect(depthOf({ kind: 'or', children: [a, { kind: 'and', children: [b, { kind: 'not', child: c }] }] })).toBe(3);
    expect(leaves({ kind: 'or', children: [a, { kind: 'not', child: { kind: 'and', children: [b, c] } }] })).toEqual([
      a,
      b,
      c,
    ]);
  });

  it('and of no node is none, of one the node, of more a group', () => {
    expect(and([])).toBeNull();
    expect(and([a])).toBe(a);
    expect(and([a, b])).toEqual({ kind: 'and', children: [a, b] });
  });
});
