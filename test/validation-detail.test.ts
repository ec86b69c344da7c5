import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ValidationError, type ValidationIssue } from '../src/errors.ts';
import { parseListBody, parseWith, quoteList } from '../src/query/validation.ts';

/** The detail a request's 422 carries: Pydantic v2's error list, as FastAPI answers it. */
function detail(schema: z.ZodType, input: unknown, part?: 'body' | 'query' | 'path'): readonly ValidationIssue[] {
  try {
    parseWith(schema, input, part);
  } catch (error) {
    if (error instanceof ValidationError) return error.detail;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

const one = (schema: z.ZodType, value: unknown): ValidationIssue => {
  const [issue, ...rest] = detail(z.strictObject({ v: schema }), { v: value });
  expect(rest).toEqual([]);
  return issue!;
};

describe('zod issues as Pydantic v2 errors (src/query/validation.ts)', () => {
  it('a missing body, a missing field (its input the object holding it) and an extra key', () => {
    expect(detail(z.object({}), undefined)).toEqual([
      { type: 'missing', loc: ['body'], msg: 'Field required', input: null },
    ]);
    expect(detail(z.object({}), null)).toEqual([
      { type: 'missing', loc: ['body'], msg: 'Field required', input: null },
    ]);
    expect(detail(z.strictObject({ a: z.string() }), { b: 1 }, 'query')).toEqual([
      { type: 'missing', loc: ['query', 'a'], msg: 'Field required', input: { b: 1 } },
      { type: 'extra_forbidden', loc: ['query', 'b'], msg: 'Extra inputs are not permitted', input: 1 },
    ]);
    expect(detail(z.strictObject({ a: z.strictObject({ b: z.string() }) }), { a: { b: 'x', c: [2] } })).toEqual([
      { type: 'extra_forbidden', loc: ['body', 'a', 'c'], msg: 'Extra inputs are not permitted', input: [2] },
    ]);
    // A key set to undefined is missing, as it would be once the body is JSON.
    expect(detail(z.strictObject({ a: z.string() }), { a: undefined })).toEqual([
      { type: 'missing', loc: ['body', 'a'], msg: 'Field required', input: { a: undefined } },
    ]);
    // A missing part outside the body is its root.
    expect(detail(z.string(), undefined, 'path')).toEqual([
      { type: 'missing', loc: ['path'], msg: 'Field required', input: undefined },
    ]);
  });

  it('type errors name the expected type, and integers tell a fraction from a string from anything else', () => {
    expect(one(z.string(), 3)).toEqual({
      type: 'string_type',
      loc: ['body', 'v'],
      msg: 'Input should be a valid string',
      input: 3,
    });
    // Not finite (the library's faces take JS numbers): not a number with a fraction.
    for (const v of [NaN, Infinity, -Infinity])
      expect(one(z.int(), v)).toEqual({
        type: 'int_type',
        loc: ['body', 'v'],
        msg: 'Input should be a valid integer',
        input: v,
      });
    expect(one(z.int(), 1.5)).toEqual({
      type: 'int_from_float',
      loc: ['body', 'v'],
      msg: 'Input should be a valid integer, got a number with a fractional part',
      input: 1.5,
    });
    expect(one(z.int(), '7')).toEqual({
      type: 'int_parsing',
      loc: ['body', 'v'],
      msg: 'Input should be a valid integer, unable to parse string as an integer',
      input: '7',
    });
    expect(one(z.number(), null)).toEqual({
      type: 'int_type',
      loc: ['body', 'v'],
      msg: 'Input should be a valid integer',
      input: null,
    });
    expect(one(z.boolean(), 'yes')).toEqual({
      type: 'bool_parsing',
      loc: ['body', 'v'],
      msg: 'Input should be a valid boolean, unable to interpret input',
      input: 'yes',
    });
    expect(one(z.boolean(), 2).type).toBe('bool_parsing');
    expect(one(z.boolean(), [])).toEqual({
      type: 'bool_type',
      loc: ['body', 'v'],
      msg: 'Input should be a valid boolean',
      input: [],
    });
    expect(one(z.array(z.string()), 'a')).toEqual({
      type: 'list_type',
      loc: ['body', 'v'],
      msg: 'Input should be a valid list',
      input: 'a',
    });
    const dictionary = {
      type: 'model_attributes_type',
      loc: ['body', 'v'],
      msg: 'Input should be a valid dictionary or object to extract fields from',
      input: 4,
    };
    expect(one(z.object({}), 4)).toEqual(dictionary);
    expect(one(z.record(z.string(), z.string()), 4)).toEqual(dictionary);
    expect(one(z.bigint(), 'x')).toEqual({
      type: 'bigint_type',
      loc: ['body', 'v'],
      msg: 'Input should be a valid bigint',
      input: 'x',
    });
  });

  it('literals list the allowed values Pydantic’s way', () => {
    expect(one(z.enum(['a', 'b', 'c']), 'd')).toEqual({
      type: 'literal_error',
      loc: ['body', 'v'],
      msg: "Input should be 'a', 'b' or 'c'",
      input: 'd',
      ctx: { expected: "'a', 'b' or 'c'" },
    });
    expect(one(z.literal(1), 2).msg).toBe("Input should be '1'");
    expect(quoteList([])).toBe('');
    expect(quoteList(['x'])).toBe("'x'");
    expect(quoteList(['x', 'y'])).toBe("'x' or 'y'");
  });

  it('bounds on strings, lists and numbers, singular and plural, inclusive and exclusive', () => {
    const at = { loc: ['body', 'v'] };
    expect(one(z.string().min(1), '')).toEqual({
      type: 'string_too_short',
      ...at,
      msg: 'String should have at least 1 character',
      input: '',
      ctx: { min_length: 1 },
    });
    expect(one(z.string().min(3), 'ab').msg).toBe('String should have at least 3 characters');
    expect(one(z.string().max(1), 'ab')).toEqual({
      type: 'string_too_long',
      ...at,
      msg: 'String should have at most 1 character',
      input: 'ab',
      ctx: { max_length: 1 },
    });
    expect(one(z.string().max(2), 'abc').msg).toBe('String should have at most 2 characters');
    expect(one(z.array(z.int()).min(1), [])).toEqual({
      type: 'too_short',
      ...at,
      msg: 'List should have at least 1 item after validation, not 0',
      input: [],
      ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
    });
    expect(one(z.array(z.int()).min(2), [1]).msg).toBe('List should have at least 2 items after validation, not 1');
    expect(one(z.array(z.int()).max(1), [1, 2])).toEqual({
      type: 'too_long',
      ...at,
      msg: 'List should have at most 1 item after validation, not 2',
      input: [1, 2],
      ctx: { field_type: 'List', max_length: 1, actual_length: 2 },
    });
    expect(one(z.array(z.int()).max(2), [1, 2, 3]).msg).toBe(
      'List should have at most 2 items after validation, not 3',
    );
    expect(one(z.set(z.int()).max(1), new Set([1, 2])).type).toBe('too_long');
    expect(one(z.int().min(1), 0)).toEqual({
      type: 'greater_than_equal',
      ...at,
      msg: 'Input should be greater than or equal to 1',
      input: 0,
      ctx: { ge: 1 },
    });
    expect(one(z.number().gt(1), 1)).toEqual({
      type: 'greater_than',
      ...at,
      msg: 'Input should be greater than 1',
      input: 1,
      ctx: { gt: 1 },
    });
    expect(one(z.int().max(5), 6)).toEqual({
      type: 'less_than_equal',
      ...at,
      msg: 'Input should be less than or equal to 5',
      input: 6,
      ctx: { le: 5 },
    });
    expect(one(z.number().lt(5), 5)).toEqual({
      type: 'less_than',
      ...at,
      msg: 'Input should be less than 5',
      input: 5,
      ctx: { lt: 5 },
    });
  });

  it('patterns, custom issues with and without a Pydantic type, and one error per location', () => {
    expect(one(z.string().regex(/^a+$/), 'b')).toEqual({
      type: 'string_pattern_mismatch',
      loc: ['body', 'v'],
      msg: "String should match pattern '^a+$'",
      input: 'b',
      ctx: { pattern: '^a+$' },
    });
    expect(
      one(
        z.string().refine(() => false, { message: 'no' }),
        'x',
      ),
    ).toEqual({
      type: 'value_error',
      loc: ['body', 'v'],
      msg: 'Value error, no',
      input: 'x',
      ctx: { error: 'no' },
    });
    const typed = z
      .string()
      .refine(() => false, { message: 'bad id', params: { type: 'uuid_parsing', ctx: { error: 'e' } } });
    expect(one(typed, 'x')).toEqual({
      type: 'uuid_parsing',
      loc: ['body', 'v'],
      msg: 'bad id',
      input: 'x',
      ctx: { error: 'e' },
    });
    const untyped = z.string().refine(() => false, { message: 'bad', params: { type: 'uuid_type' } });
    expect(one(untyped, 'x')).toEqual({ type: 'uuid_type', loc: ['body', 'v'], msg: 'bad', input: 'x' });
    // A pattern with flags is named without its slashes and flags, as Pydantic names it.
    expect(one(z.string().regex(/^a+$/i), 'b')).toMatchObject({
      msg: "String should match pattern '^a+$'",
      ctx: { pattern: '^a+$' },
    });
    // Two failing constraints at one place: the first wins.
    expect(detail(z.strictObject({ v: z.string().min(3).regex(/^a+$/) }), { v: 'b' })).toEqual([
      expect.objectContaining({ type: 'string_too_short' }),
    ]);
  });
});

describe('a long list body checked a slice at a time (parseListBody)', () => {
  const envelope = z.strictObject({ name: z.string(), items: z.array(z.unknown()).max(3) });
  const item = z.strictObject({ n: z.int() });
  const whole = z.strictObject({ name: z.string(), items: z.array(item).max(3) });
  const same = async (input: unknown) => {
    const got = await parseListBody(envelope, 'items', item, input).catch((e: unknown) => e);
    let want: unknown;
    try {
      want = parseWith(whole, input);
    } catch (error) {
      want = error;
    }
    return { got, want };
  };

  it('refuses a missing body as parseWith does, and lets an error that is not a 422 through as it is', async () => {
    const got = await parseListBody(envelope, 'items', item, null).catch((e: unknown) => e);
    expect((got as ValidationError).detail).toEqual([
      { type: 'missing', loc: ['body'], msg: 'Field required', input: null },
    ]);
    const broken = envelope.refine(() => {
      throw new RangeError('a bug in a schema');
    });
    await expect(parseListBody(broken, 'items', item, { name: 'x', items: [] })).rejects.toThrow(
      new RangeError('a bug in a schema'),
    );
  });

  it('answers as one schema over the whole body would', async () => {
    for (const input of [
      { name: 'x', items: [{ n: 1 }, { n: 2 }] },
      { name: 'x', items: [{ n: 1 }, { n: 'a' }, { m: 1 }] },
      { name: 3, items: [{ n: 1.5 }] },
      { name: 'x', items: [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 'a' }] },
      { name: 'x', items: 'none' },
      { name: 'x' },
    ]) {
      const { got, want } = await same(input);
      if (want instanceof ValidationError) {
        expect(got).toBeInstanceOf(ValidationError);
        expect(
          [...(got as ValidationError).detail].sort((a, b) => (JSON.stringify(a.loc) < JSON.stringify(b.loc) ? -1 : 1)),
        ).toEqual([...want.detail].sort((a, b) => (JSON.stringify(a.loc) < JSON.stringify(b.loc) ? -1 : 1)));
      } else expect(got).toEqual(want);
    }
  });
});
