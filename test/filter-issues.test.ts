import { describe, expect, it } from 'vitest';
import { checkFilter, compileFilter, type FilterCatalog } from '../src/query/filter-compiler.ts';
import { textField } from '../src/query/filter-fields.ts';
import type { FilterNode } from '../src/query/filter-node.ts';
import {
  flatToNode,
  idField,
  maxFlatValues,
  nameField,
  plainField,
  readFlatFilters,
  type FlatCatalog,
} from '../src/query/flat-filters.ts';
import { render, sql } from '../src/query/sql.ts';

/**
 * The exact 422 issues of a filter against a report's fields, v2 trees (checkFilter) and v1 flat lists
 * (readFlatFilters): the message, where it points and the value it echoes, for each refusal, and the
 * SQL a checked tree compiles to.
 */

const leaf = (field: string, op: string, value: unknown) => ({ kind: 'leaf', field, op, value }) as FilterNode;
const valueIssue = (loc: (string | number)[], error: string, input: unknown) => ({
  type: 'value_error',
  loc,
  msg: `Value error, ${error}`,
  input,
  ctx: { error },
});

describe('a v2 filter tree checked against the fields', () => {
  const catalog: FilterCatalog = {
    model: textField(sql`model`, ['is', 'not_is', 'in', 'not_in']),
    prompt: textField(sql`prompt`),
    cited: { ops: ['is', 'not_is'], valueType: 'boolean', match: (_op, [v]) => sql`cited = ${v!}` },
  };
  const at = ['body', 'filter'];
  const check = (node: FilterNode) => checkFilter(node, catalog, at);

  it('accepts what the fields take', () => {
    expect(check(leaf('model', 'in', ['a', 'b']))).toEqual([]);
    expect(check(leaf('cited', 'not_is', false))).toEqual([]);
    expect(check(leaf('prompt', 'matches', '^a(b|c)+$'))).toEqual([]);
    expect(check(leaf('prompt', 'contains', '(?<=a'))).toEqual([]);
  });

  it('refuses an unknown field, naming the fields there are', () => {
    expect(check(leaf('domain', 'is', 'x'))).toEqual([
      valueIssue(
        ['body', 'filter', 'field'],
        "unknown filter field 'domain'; this report filters on 'model', 'prompt', 'cited'",
        'domain',
      ),
    ]);
    expect(check(leaf('toString', 'is', 'x'))[0]!.loc).toEqual(['body', 'filter', 'field']);
  });

  it('refuses an operator the field does not take, naming the ones it does', () => {
    expect(check(leaf('model', 'contains', 'x'))).toEqual([
      valueIssue(
        ['body', 'filter', 'op'],
        "operator 'contains' is not allowed on field 'model'; use one of is, not_is, in, not_in",
        'contains',
      ),
    ]);
  });

  it('refuses a list where one value goes and one value where a list goes, and an empty list', () => {
    expect(check(leaf('model', 'not_in', 'a'))).toEqual([
      valueIssue(['body', 'filter', 'value'], "operator 'not_in' requires a list value", 'a'),
    ]);
    expect(check(leaf('model', 'is', ['a']))).toEqual([
      valueIssue(['body', 'filter', 'value'], "operator 'is' takes a single value; use 'in' or 'not_in' for a list", [
        'a',
      ]),
    ]);
    expect(check(leaf('model', 'in', []))).toEqual([
      valueIssue(['body', 'filter', 'value'], "operator 'in' requires a non-empty list", []),
    ]);
  });

  it('refuses a value of the wrong type, pointing at the list item', () => {
    expect(check(leaf('model', 'in', ['a', 'b', 3]))).toEqual([
      valueIssue(['body', 'filter', 'value', 2], "field 'model' takes string values", 3),
    ]);
    expect(check(leaf('cited', 'is', 'yes'))).toEqual([
      valueIssue(['body', 'filter', 'value'], "field 'cited' takes boolean values", 'yes'),
    ]);
  });

  it('refuses a pattern RE2 cannot run, with the reason', () => {
    expect(check(leaf('prompt', 'matches', '(?<=a)b'))).toEqual([
      valueIssue(['body', 'filter', 'value'], 'look-around assertions are not supported', '(?<=a)b'),
    ]);
  });

  it('reports every bad leaf of a tree, each at its path', () => {
    const tree: FilterNode = {
      kind: 'and',
      children: [
        leaf('model', 'is', 'a'),
        { kind: 'or', children: [leaf('cited', 'is', true), { kind: 'not', child: leaf('nope', 'is', 'x') }] },
        leaf('model', 'in', 'a'),
      ],
    };
    expect(check(tree).map((i) => i.loc)).toEqual([
      ['body', 'filter', 'and', 1, 'or', 1, 'not', 'field'],
      ['body', 'filter', 'and', 2, 'value'],
    ]);
  });
});

describe('a checked tree as SQL', () => {
  const catalog: FilterCatalog = {
    model: textField(sql`model`),
    cited: { ops: ['is', 'not_is'], valueType: 'boolean', match: (_op, [v]) => sql`cited = ${v!}` },
  };
  const scope = { organizationId: 'org' };
  const compiled = (node: FilterNode) => render(compileFilter(node, catalog, scope));

  it('a positive leaf never matches NULL; a negative one is its exact negation', () => {
    expect(compiled(leaf('cited', 'is', true))).toEqual({ text: 'COALESCE(cited = $1, FALSE)', params: [true] });
    expect(compiled(leaf('cited', 'not_is', true))).toEqual({
      text: 'NOT COALESCE(cited = $1, FALSE)',
      params: [true],
    });
  });

  it('and, or and not keep their operands apart', () => {
    const a = leaf('cited', 'is', true);
    const b = leaf('cited', 'is', false);
    expect(compiled({ kind: 'and', children: [a, b] }).text).toBe(
      '(COALESCE(cited = $1, FALSE)) AND (COALESCE(cited = $2, FALSE))',
    );
    expect(compiled({ kind: 'or', children: [a, b] }).text).toBe(
      '((COALESCE(cited = $1, FALSE)) OR (COALESCE(cited = $2, FALSE)))',
    );
    expect(compiled({ kind: 'not', child: { kind: 'or', children: [a, b] } }).text).toBe(
      'NOT (((COALESCE(cited = $1, FALSE)) OR (COALESCE(cited = $2, FALSE))))',
    );
  });
});

describe('v1 flat filters read against the fields', () => {
  const catalog: FlatCatalog = {
    model_id: idField(sql`model_id`),
    prompt: plainField(sql`prompt`),
    hostname: plainField(sql`hostname`, { dimension: 'hostname' }),
    visible: { ops: ['is'], valueType: 'boolean', match: (_op, [v]) => sql`visible = ${v!}` },
    position: { ops: ['is', 'in'], valueType: 'number', match: (_op, v) => sql`position = ${v[0]!}` },
  };
  const at = (i: number, ...rest: (string | number)[]) => ['body', 'filters', i, ...rest];
  const read = (input: { field: string; operator?: never; value?: unknown }[] | unknown[], dims: string[] = []) =>
    readFlatFilters(input as Parameters<typeof readFlatFilters>[0], catalog, dims);
  const uuid = '0A1B2C3D-0000-4000-8000-00000000000A';

  it('resolves aliases, defaults the operator to is and normalizes UUIDs', () => {
    expect(
      read(
        [
          { field: 'model', value: uuid },
          { field: 'prompt', operator: 'matches', value: '^a' },
          { field: 'position', operator: 'in', value: [1, 2] },
          { field: 'hostname', value: 'a.example' },
        ] as never[],
        ['hostname'],
      ),
    ).toEqual({
      filters: [
        { field: 'model_id', operator: 'is', value: uuid.toLowerCase() },
        { field: 'prompt', operator: 'matches', value: '^a' },
        { field: 'position', operator: 'in', value: [1, 2] },
        { field: 'hostname', operator: 'is', value: 'a.example' },
      ],
      issues: [],
    });
    expect(read([])).toEqual({ filters: [], issues: [] });
    expect(readFlatFilters(null, catalog, [])).toEqual({ filters: [], issues: [] });
  });

  it('refuses a filter without a value', () => {
    expect(read([{ field: 'prompt' }]).issues).toEqual([
      { type: 'missing', loc: at(0, 'value'), msg: 'Field required', input: { field: 'prompt' } },
    ]);
    expect(read([{ field: 'prompt', value: undefined }]).issues[0]!.type).toBe('missing');
  });

  it('refuses an unknown field, by the name it was sent as', () => {
    expect(read([{ field: 'brand', value: 'x' }]).issues).toEqual([
      valueIssue(
        at(0, 'field'),
        "unknown filter field 'brand'; this report filters on 'model_id', 'prompt', 'hostname', 'visible', 'position'",
        'brand',
      ),
    ]);
    expect(read([{ field: 'constructor', value: 'x' }]).issues[0]!.loc).toEqual(at(0, 'field'));
  });

  it('refuses an operator the field does not take', () => {
    expect(read([{ field: 'model', operator: 'contains', value: 'x' }] as never[]).issues).toEqual([
      valueIssue(
        at(0, 'operator'),
        "operator 'contains' is not allowed on field 'model_id'; use one of is, not_is, in, not_in",
        'contains',
      ),
    ]);
  });

  it('refuses a filter on a field whose dimension is not asked for', () => {
    expect(read([{ field: 'hostname', value: 'a.example' }], ['path']).issues).toEqual([
      valueIssue(at(0, 'field'), "a filter on 'hostname' requires 'hostname' among the dimensions", 'hostname'),
    ]);
  });

  it('refuses in and not_in without a non-empty list', () => {
    expect(read([{ field: 'prompt', operator: 'in', value: 'x' }] as never[]).issues).toEqual([
      valueIssue(at(0, 'value'), "operator 'in' requires a non-empty list value", 'x'),
    ]);
    expect(read([{ field: 'prompt', operator: 'not_in', value: [] }] as never[]).issues).toEqual([
      valueIssue(at(0, 'value'), "operator 'not_in' requires a non-empty list value", []),
    ]);
    expect(read([{ field: 'prompt', value: [] }]).issues).toEqual([
      valueIssue(at(0, 'value'), "operator 'is' requires a non-empty list value", []),
    ]);
  });

  it(`takes up to ${maxFlatValues} values, and refuses one more`, () => {
    const values = Array.from({ length: maxFlatValues }, (_, i) => `v${i}`);
    expect(read([{ field: 'prompt', operator: 'in', value: values }] as never[]).issues).toEqual([]);
    const over = [...values, 'one more'];
    expect(read([{ field: 'prompt', operator: 'in', value: over }] as never[]).issues).toEqual([
      {
        type: 'too_long',
        loc: at(0, 'value'),
        msg: `List should have at most ${maxFlatValues} items after validation, not ${maxFlatValues + 1}`,
        input: over,
        ctx: { field_type: 'List', max_length: maxFlatValues, actual_length: maxFlatValues + 1 },
      },
    ]);
  });

  it('refuses values of the wrong type or not finite, each at its place in the list', () => {
    expect(read([{ field: 'visible', value: 'true' }]).issues).toEqual([
      valueIssue(at(0, 'value'), "field 'visible' takes boolean values", 'true'),
    ]);
    expect(read([{ field: 'position', operator: 'in', value: [1, Infinity, 'x'] }] as never[])).toEqual({
      filters: [],
      issues: [
        valueIssue(at(0, 'value', 1), "field 'position' takes number values", Infinity),
        valueIssue(at(0, 'value', 2), "field 'position' takes number values", 'x'),
      ],
    });
    expect(read([{ field: 'position', value: NaN }]).issues[0]!.msg).toBe(
      "Value error, field 'position' takes number values",
    );
  });

  it('refuses a malformed UUID as Pydantic does, and a pattern RE2 cannot run', () => {
    const error = 'invalid length: expected length 32 for simple format, found 3';
    expect(read([{ field: 'model_id', value: 'abc' }]).issues).toEqual([
      {
        type: 'uuid_parsing',
        loc: at(0, 'value'),
        msg: `Input should be a valid UUID, ${error}`,
        input: 'abc',
        ctx: { error },
      },
    ]);
    expect(read([{ field: 'prompt', operator: 'matches', value: 'a\\1' }] as never[]).issues).toEqual([
      valueIssue(at(0, 'value'), 'back-references are not supported', 'a\\1'),
    ]);
    expect(read([{ field: 'prompt', operator: 'contains', value: 'a\\1' }] as never[]).issues).toEqual([]);
  });

  it('reads every filter, keeping the good ones and reporting each bad one', () => {
    const { filters, issues } = read([
      { field: 'prompt', value: 'a' },
      { field: 'brand', value: 'x' },
      { field: 'visible', value: true },
    ]);
    expect(filters).toEqual([
      { field: 'prompt', operator: 'is', value: 'a' },
      { field: 'visible', operator: 'is', value: true },
    ]);
    expect(issues.map((i) => i.loc)).toEqual([at(1, 'field')]);
  });
});

describe('a v1 name filter reads only the names the caller may see', () => {
  const match = (scope: 'global' | 'category' | 'organization', categoryId?: string) =>
    render(
      nameField(sql`asset_id`, { table: 'assets', name: 'name', scope }).match('is', ['Acme'], {
        organizationId: 'o1',
        ...(categoryId ? { categoryId } : {}),
      }),
    );

  it('a global dimension by name alone; a category one in the category, else in the organization', () => {
    expect(match('global', 'c1')).toEqual({
      text: 'asset_id IN (SELECT id FROM "assets" WHERE TRUE AND "name" = $1)',
      params: ['Acme'],
    });
    expect(match('category', 'c1')).toEqual({
      text: 'asset_id IN (SELECT id FROM "assets" WHERE category_id = $1 AND "name" = $2)',
      params: ['c1', 'Acme'],
    });
    const inOrganization = {
      text: 'asset_id IN (SELECT id FROM "assets" WHERE organization_id = $1 AND "name" = $2)',
      params: ['o1', 'Acme'],
    };
    expect(match('category')).toEqual(inOrganization);
    expect(match('organization', 'c1')).toEqual(inOrganization);
  });

  // The field is built inside the case: the reports build theirs when their module loads, which Stryker's
  // static mutants of it never reach.
  it('takes names as text and refuses any other value', () => {
    const catalog: FlatCatalog = {
      asset_name: nameField(sql`asset_id`, { table: 'assets', name: 'name', scope: 'global' }),
    };
    expect(readFlatFilters([{ field: 'asset_name', value: 'Acme' }], catalog, [])).toEqual({
      filters: [{ field: 'asset_name', operator: 'is', value: 'Acme' }],
      issues: [],
    });
    expect(readFlatFilters([{ field: 'asset_name', value: 3 }], catalog, []).issues).toEqual([
      valueIssue(['body', 'filters', 0, 'value'], "field 'asset_name' takes string values", 3),
    ]);
  });
});

describe('v1 flat filters as one tree', () => {
  it('is none without filters; a list under a one-value operator means any of the values', () => {
    expect(flatToNode([])).toBeNull();
    expect(flatToNode([{ field: 'p', operator: 'is', value: ['a', 'b'] }])).toEqual(leaf('p', 'in', ['a', 'b']));
    expect(flatToNode([{ field: 'p', operator: 'not_is', value: ['a', 'b'] }])).toEqual(
      leaf('p', 'not_in', ['a', 'b']),
    );
    expect(flatToNode([{ field: 'p', operator: 'in', value: ['a'] }])).toEqual(leaf('p', 'in', ['a']));
    expect(flatToNode([{ field: 'p', operator: 'not_in', value: ['a', 'b'] }])).toEqual(
      leaf('p', 'not_in', ['a', 'b']),
    );
    expect(flatToNode([{ field: 'p', operator: 'contains', value: ['a', 'b'] }])).toEqual({
      kind: 'or',
      children: [leaf('p', 'contains', 'a'), leaf('p', 'contains', 'b')],
    });
    expect(flatToNode([{ field: 'p', operator: 'not_contains', value: ['a', 'b'] }])).toEqual({
      kind: 'not',
      child: { kind: 'or', children: [leaf('p', 'contains', 'a'), leaf('p', 'contains', 'b')] },
    });
  });
});
