import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ValidationError, type ValidationIssue } from '../src/errors.ts';
import {
  canonicalUuid,
  dateError,
  laxBool,
  laxInt,
  laxNumber,
  uuidError,
  zDate,
  zUuid,
} from '../src/query/schema-types.ts';
import { parseWith } from '../src/query/validation.ts';

/**
 * The request types that read as Pydantic reads them (src/query/schema-types.ts): UUIDs with the Rust uuid
 * crate's error texts, dates with speedate's, and the lax integers, booleans and numbers, each through
 * `parseWith` as a request's 422 shows it.
 */

function parsed(schema: z.ZodType, v: unknown): { value: unknown } | { issue: ValidationIssue } {
  try {
    return { value: (parseWith(z.strictObject({ v: schema }), { v }) as { v: unknown }).v };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    expect(error.detail).toHaveLength(1);
    return { issue: error.detail[0]! };
  }
}

describe('UUIDs', () => {
  it('accept every form Pydantic accepts, and read as the canonical lower-case hyphenated form', () => {
    const canonical = '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0';
    for (const form of [
      canonical,
      canonical.toUpperCase(),
      canonical.replaceAll('-', ''),
      `{${canonical}}`,
      `urn:uuid:${canonical}`,
      `URN:UUID:${canonical.toUpperCase()}`,
      `{${canonical.replaceAll('-', '')}}`,
      `urn:uuid:${canonical.replaceAll('-', '')}`,
    ]) {
      expect(uuidError(form), form).toBeNull();
      expect(canonicalUuid(form), form).toBe(canonical);
      expect(parsed(zUuid(), form), form).toEqual({ value: canonical });
    }
  });

  it('name the first bad character and its place, counted after the prefix', () => {
    const found = (c: string, at: number) =>
      `invalid character: expected an optional prefix of \`urn:uuid:\` followed by [0-9a-fA-F-], found \`${c}\` at ${at}`;
    expect(uuidError('0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1fg')).toBe(found('g', 36));
    expect(uuidError('x0f1e2d3c')).toBe(found('x', 1));
    expect(uuidError('urn:uuid:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f ')).toBe(found(' ', 36));
    expect(uuidError('{0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f}0')).toBe(found('{', 1));
    expect(uuidError('{0f1e2d3c4b5a69788796a5b4c3d2e1fz}')).toBe(found('z', 32));
    expect(uuidError('urn:uuid:{0f1e2d3c4b5a69788796a5b4c3d2e1f0}')).toBe(found('{', 1));
    expect(uuidError('0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0}')).toBe(found('}', 37));
  });

  it('name a wrong length, group count or group length', () => {
    expect(uuidError('')).toBe('invalid length: expected length 32 for simple format, found 0');
    expect(uuidError('0f1e2d3c4b5a69788796a5b4c3d2e1f')).toBe(
      'invalid length: expected length 32 for simple format, found 31',
    );
    expect(uuidError('0f1e2d3c4b5a69788796a5b4c3d2e1f00')).toBe(
      'invalid length: expected length 32 for simple format, found 33',
    );
    expect(uuidError('0f1e2d3c-4b5a-6978-8796a5b4c3d2e1f0')).toBe('invalid group count: expected 5, found 4');
    expect(uuidError('0f1e-2d3c-4b5a-6978-8796-a5b4c3d2e1f0')).toBe('invalid group count: expected 5, found 6');
    expect(uuidError('0f1e2d3c0-4b5a-6978-8796-a5b4c3d2e1f')).toBe(
      'invalid group length in group 0: expected 8, found 9',
    );
    expect(uuidError('0f1e2d3c-4b5a0-6978-8796-a5b4c3d2e1f')).toBe(
      'invalid group length in group 1: expected 4, found 5',
    );
    expect(uuidError('0f1e2d3c-4b5a-697-88796-a5b4c3d2e1f0')).toBe(
      'invalid group length in group 2: expected 4, found 3',
    );
    expect(uuidError('0f1e2d3c-4b5a-6978-879-6a5b4c3d2e1f0')).toBe(
      'invalid group length in group 3: expected 4, found 3',
    );
    expect(uuidError('0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f')).toBe(
      'invalid group length in group 4: expected 12, found 11',
    );
  });

  it('refuse as Pydantic does: uuid_parsing with the error in ctx, the input echoed', () => {
    expect(parsed(zUuid(), 'nope')).toEqual({
      issue: {
        type: 'uuid_parsing',
        loc: ['body', 'v'],
        msg: 'Input should be a valid UUID, invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `n` at 1',
        input: 'nope',
        ctx: {
          error:
            'invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `n` at 1',
        },
      },
    });
  });
});

describe('dates', () => {
  it('a date, or a datetime at midnight, read as the date', () => {
    for (const [text, day] of [
      ['2026-03-08', '2026-03-08'],
      ['2028-02-29', '2028-02-29'],
      ['2026-03-08T00:00', '2026-03-08'],
      ['2026-03-08 00:00:00', '2026-03-08'],
      ['2026-03-08T00:00:00.000Z', '2026-03-08'],
      ['2026-03-08T00:00:00+00:00', '2026-03-08'],
      ['2026-03-08T00:00-0000', '2026-03-08'],
    ]) {
      expect(dateError(text!), text).toBeNull();
      expect(parsed(zDate(), text), text).toEqual({ value: day });
    }
  });

  it('each speedate error', () => {
    const e = (error: string) => ({ type: 'date_from_datetime_parsing', error });
    expect(dateError('2026-03-8')).toEqual(e('input is too short'));
    expect(dateError('2o26-03-08')).toEqual(e('invalid character in year'));
    expect(dateError('2026/03/08')).toEqual(e('invalid date separator, expected `-`'));
    expect(dateError('2026-03/08')).toEqual(e('invalid date separator, expected `-`'));
    expect(dateError('2026/03-08')).toEqual(e('invalid date separator, expected `-`'));
    expect(dateError('2026-0x-08')).toEqual(e('invalid character in month'));
    expect(dateError('2026-03-0x')).toEqual(e('invalid character in day'));
    expect(dateError('2026-00-08')).toEqual(e('month value is outside expected range of 1-12'));
    expect(dateError('2026-13-08')).toEqual(e('month value is outside expected range of 1-12'));
    expect(dateError('2026-02-00')).toEqual(e('day value is outside expected range'));
    expect(dateError('2026-02-29')).toEqual(e('day value is outside expected range'));
    expect(dateError('2026-04-31')).toEqual(e('day value is outside expected range'));
    expect(dateError('2026-03-08x')).toEqual(e('unexpected extra characters at the end of the input'));
    expect(dateError('2026-03-08T00:00:00+00:00x')).toEqual(e('unexpected extra characters at the end of the input'));
    expect(dateError('x2026-03-08T00:00')).toEqual(e('invalid character in year'));
    expect(dateError('2026-03-08 T00:00')).toEqual(e('unexpected extra characters at the end of the input'));
    expect(dateError('2026-03-08T00:30')).toEqual({ type: 'date_from_datetime_inexact' });
    expect(dateError('2026-03-08T00:00:00.5')).toEqual({ type: 'date_from_datetime_inexact' });
    expect(dateError('2026-03-08T00:00:00+01:00')).toEqual({ type: 'date_from_datetime_inexact' });
    expect(dateError('2026-03-08T00:00:01')).toEqual({ type: 'date_from_datetime_inexact' });
  });

  it('refuse as Pydantic does', () => {
    expect(parsed(zDate(), '2026-13-08')).toEqual({
      issue: {
        type: 'date_from_datetime_parsing',
        loc: ['body', 'v'],
        msg: 'Input should be a valid date or datetime, month value is outside expected range of 1-12',
        input: '2026-13-08',
        ctx: { error: 'month value is outside expected range of 1-12' },
      },
    });
    expect(parsed(zDate(), '2026-03-08T10:00')).toEqual({
      issue: {
        type: 'date_from_datetime_inexact',
        loc: ['body', 'v'],
        msg: 'Datetimes provided to dates should have zero time - e.g. be exact dates',
        input: '2026-03-08T10:00',
      },
    });
  });
});

describe('lax integers, booleans and numbers', () => {
  it('integers: numeric strings with signs and spaces, integral floats', () => {
    for (const [input, value] of [
      [' 42 ', 42],
      ['+7', 7],
      ['-7', -7],
      [3, 3],
      [3.0, 3],
    ] as const)
      expect(parsed(laxInt(), input), String(input)).toEqual({ value });
    for (const bad of ['4.5', '4 2', '', 'x1', 4.5, true, [7], ['8']])
      expect('issue' in parsed(laxInt(), bad), String(bad)).toBe(true);
    expect(parsed(laxInt(z.int().min(1)), '0')).toMatchObject({ issue: { type: 'greater_than_equal', input: 0 } });
  });

  it('booleans: Pydantic’s words in any case, and 0 and 1', () => {
    for (const word of ['true', '1', 'yes', 'on', 't', 'y', 'TRUE', 'Yes', true, 1])
      expect(parsed(laxBool(), word), String(word)).toEqual({ value: true });
    for (const word of ['false', '0', 'no', 'off', 'f', 'n', 'FALSE', 'No', false, 0])
      expect(parsed(laxBool(), word), String(word)).toEqual({ value: false });
    for (const bad of ['maybe', '', 2, -1, 'true ', null])
      expect(parsed(laxBool(), bad), String(bad)).toMatchObject({ issue: { input: bad } });
  });

  it('numbers: finite numbers and numeric strings; the float errors otherwise', () => {
    for (const [input, value] of [
      [1.5, 1.5],
      [' -2.5e3 ', -2500],
      ['.5', 0.5],
      ['5.', 5],
      ['+1E-2', 0.01],
    ] as const)
      expect(parsed(laxNumber(), input), String(input)).toEqual({ value });
    expect(parsed(laxNumber(), 'abc')).toEqual({
      issue: {
        type: 'float_parsing',
        loc: ['body', 'v'],
        msg: 'Input should be a valid number, unable to parse string as a number',
        input: 'abc',
      },
    });
    for (const bad of ['1e', '.', '1.2.3', 'Infinity', 'NaN', ''])
      expect(parsed(laxNumber(), bad), bad).toMatchObject({ issue: { type: 'float_parsing', input: bad } });
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, true, null, [1]])
      expect(parsed(laxNumber(), bad), String(bad)).toEqual({
        issue: { type: 'float_type', loc: ['body', 'v'], msg: 'Input should be a valid number', input: bad },
      });
  });
});

describe('the OpenAPI document', () => {
  it('shows a UUID and a date with their formats, and a lax number as a number', () => {
    const properties = z.toJSONSchema(z.object({ id: zUuid(), day: zDate(), x: laxNumber() }), {
      io: 'input',
    }).properties!;
    expect(properties.id).toMatchObject({ type: 'string', format: 'uuid' });
    expect(properties.day).toMatchObject({ type: 'string', format: 'date' });
    expect(properties.x).toMatchObject({ type: 'number' });
  });
});
