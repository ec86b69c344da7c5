import { describe, expect, it } from 'vitest';
import {
  idOps,
  refField,
  selectedIds,
  setRefField,
  textField,
  textOps,
  textPredicate,
} from '../src/query/filter-fields.ts';
import { render, sql } from '../src/query/sql.ts';

/** The SQL a filter leaf compiles to, per operator and dialect: the values always bound, never spliced. */

const both = (f: ReturnType<typeof sql>) => [render(f), render(f, 'clickhouse')];
const models = { table: 'models', name: 'name', scope: 'global' } as const;
const scope = { organizationId: 'o1', categoryId: 'c1' };

describe('a text column compared', () => {
  it('with each positive operator, the first value for the one-value ones', () => {
    expect(both(textPredicate(sql`f.url`, 'is', ['a', 'b']))).toEqual([
      { text: 'f.url = $1', params: ['a'] },
      { text: 'f.url = {p1:String}', params: ['a'] },
    ]);
    expect(render(textPredicate(sql`f.url`, 'is', []))).toEqual({ text: 'f.url = $1', params: [null] });
    expect(both(textPredicate(sql`f.url`, 'in', ['a', 'b']))).toEqual([
      { text: 'f.url IN ($1, $2)', params: ['a', 'b'] },
      { text: 'f.url IN ({p1:String}, {p2:String})', params: ['a', 'b'] },
    ]);
    expect(both(textPredicate(sql`f.url`, 'contains', ['x']))).toEqual([
      { text: 'contains(f.url, $1)', params: ['x'] },
      { text: '(position(f.url, {p1:String}) > 0)', params: ['x'] },
    ]);
    expect(both(textPredicate(sql`f.url`, 'contains_case_insensitive', ['X']))).toEqual([
      { text: 'contains(lower(f.url), lower($1))', params: ['X'] },
      { text: '(position(lowerUTF8(f.url), lowerUTF8({p1:String})) > 0)', params: ['X'] },
    ]);
    expect(both(textPredicate(sql`f.url`, 'matches', ['^a.*$']))).toEqual([
      { text: 'regexp_matches(f.url, $1)', params: ['^a.*$'] },
      { text: 'regexp_matches(f.url, {p1:String})', params: ['^a.*$'] },
    ]);
  });

  it('takes every text operator by default', () => {
    expect(textField(sql`x`).ops).toEqual(textOps);
    expect(textOps).toEqual([
      'is',
      'not_is',
      'in',
      'not_in',
      'contains',
      'not_contains',
      'matches',
      'contains_case_insensitive',
      'not_contains_case_insensitive',
    ]);
    expect(textField(sql`x`, ['is']).ops).toEqual(['is']);
    expect(textField(sql`x`).valueType).toBe('string');
    expect(render(textField(sql`x`).match('in', ['a'], scope))).toEqual({ text: 'x IN ($1)', params: ['a'] });
  });
});

describe('a dimension named by id or by name', () => {
  it('is or in matches either the id or the name; the text operators the name only', () => {
    expect(render(selectedIds(models, 'in', ['m1', 'GPT'], scope))).toEqual({
      text: 'SELECT id FROM "models" WHERE TRUE AND (id IN ($1, $2) OR "name" IN ($3, $4))',
      params: ['m1', 'GPT', 'm1', 'GPT'],
    });
    expect(render(selectedIds(models, 'is', ['m1'], scope))).toEqual({
      text: 'SELECT id FROM "models" WHERE TRUE AND (id IN ($1) OR "name" IN ($2))',
      params: ['m1', 'm1'],
    });
    expect(render(selectedIds(models, 'contains', ['gp'], scope))).toEqual({
      text: 'SELECT id FROM "models" WHERE TRUE AND contains("name", $1)',
      params: ['gp'],
    });
  });

  it('a fact column holding one id is in the selected ids; ids and names only by default', () => {
    const f = refField(sql`f.model_id`, models);
    expect(f.ops).toEqual(idOps);
    expect(idOps).toEqual(['is', 'not_is', 'in', 'not_in']);
    expect(f.valueType).toBe('string');
    expect(refField(sql`f.model_id`, models, textOps).ops).toBe(textOps);
    expect(render(f.match('is', ['m1'], scope))).toEqual({
      text: 'f.model_id IN (SELECT id FROM "models" WHERE TRUE AND (id IN ($1) OR "name" IN ($2)))',
      params: ['m1', 'm1'],
    });
  });

  it('a list column holding several ids matches when any is selected, in each dialect', () => {
    const f = setRefField(sql`f.tag_ids`, { table: 'tags', name: 'name', scope: 'organization' });
    expect(f.ops).toEqual(idOps);
    expect(f.valueType).toBe('string');
    expect(setRefField(sql`t`, models, ['is']).ops).toEqual(['is']);
    expect(both(f.match('is', ['t1'], scope))).toEqual([
      {
        text: 'list_has_any(f.tag_ids, (SELECT list(id) FROM (SELECT id FROM "tags" WHERE organization_id = $1 AND (id IN ($2) OR "name" IN ($3)))))',
        params: ['o1', 't1', 't1'],
      },
      {
        text: 'hasAny(f.tag_ids, (SELECT groupArray(id) FROM (SELECT id FROM "tags" WHERE organization_id = {p1:String} AND (id IN ({p2:String}) OR "name" IN ({p3:String})))))',
        params: ['o1', 't1', 't1'],
      },
    ]);
  });
});
