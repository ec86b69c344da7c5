import { z } from 'zod';

const hex = /^[0-9a-fA-F]$/;

/** Pydantic's UUID rules: any hex UUID, hyphenated or 32-hex, optionally braced or urn-prefixed; error texts of Rust's uuid crate. */
export function uuidError(raw: string): string | null {
  let s = raw;
  if (s.toLowerCase().startsWith('urn:uuid:')) s = s.slice(9);
  else if (s.startsWith('{') && s.endsWith('}')) s = s.slice(1, -1);
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '-' && !hex.test(c)) {
      return `invalid character: expected an optional prefix of \`urn:uuid:\` followed by [0-9a-fA-F-], found \`${c}\` at ${i + 1}`;
    }
  }
  if (!s.includes('-'))
    return s.length === 32 ? null : `invalid length: expected length 32 for simple format, found ${s.length}`;
  const groups = s.split('-');
  if (groups.length !== 5) return `invalid group count: expected 5, found ${groups.length}`;
  const lengths = [8, 4, 4, 4, 12];
  for (let g = 0; g < 5; g++) {
    if (groups[g]!.length !== lengths[g])
      return `invalid group length in group ${g}: expected ${lengths[g]}, found ${groups[g]!.length}`;
  }
  return null;
}

export function canonicalUuid(raw: string): string {
  let s = raw.toLowerCase();
  if (s.startsWith('urn:uuid:')) s = s.slice(9);
  else if (s.startsWith('{')) s = s.slice(1, -1);
  const h = s.replaceAll('-', '');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export const zUuid = () =>
  z
    .string()
    .check(
      z.superRefine((value, ctx) => {
        const error = uuidError(value);
        if (error)
          ctx.addIssue({
            code: 'custom',
            message: `Input should be a valid UUID, ${error}`,
            params: { type: 'uuid_parsing', ctx: { error } },
            input: value,
          });
      }),
    )
    .transform(canonicalUuid)
    .meta({ format: 'uuid' });

const daysInMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** speedate's date error for a string, or null when it is a date (a datetime with zero time counts, as in Pydantic). */
export function dateError(s: string): { type: string; error?: string } | null {
  if (s.length < 10) return { type: 'date_from_datetime_parsing', error: 'input is too short' };
  if (!/^\d{4}$/.test(s.slice(0, 4))) return { type: 'date_from_datetime_parsing', error: 'invalid character in year' };
  if (s[4] !== '-' || s[7] !== '-')
    return { type: 'date_from_datetime_parsing', error: 'invalid date separator, expected `-`' };
  if (!/^\d{2}$/.test(s.slice(5, 7)))
    return { type: 'date_from_datetime_parsing', error: 'invalid character in month' };
  if (!/^\d{2}$/.test(s.slice(8, 10))) return { type: 'date_from_datetime_parsing', error: 'invalid character in day' };
  const y = Number(s.slice(0, 4));
  const m = Number(s.slice(5, 7));
  const d = Number(s.slice(8, 10));
  if (m < 1 || m > 12)
    return { type: 'date_from_datetime_parsing', error: 'month value is outside expected range of 1-12' };
  if (d < 1 || d > daysInMonth(y, m))
    return { type: 'date_from_datetime_parsing', error: 'day value is outside expected range' };
  if (s.length === 10) return null;
  const rest = s.slice(10);
  if (/^[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(rest)) {
    return /^[T ]00:00(:00(\.0+)?)?(Z|[+-]00:?00)?$/.test(rest) ? null : { type: 'date_from_datetime_inexact' };
  }
  return { type: 'date_from_datetime_parsing', error: 'unexpected extra characters at the end of the input' };
}

/** A calendar date `YYYY-MM-DD` (Answer Engine Insights dates are in America/New_York). */
export const zDate = () =>
  z
    .string()
    .check(
      z.superRefine((value, ctx) => {
        const e = dateError(value);
        if (!e) return;
        if (e.type === 'date_from_datetime_inexact') {
          ctx.addIssue({
            code: 'custom',
            message: 'Datetimes provided to dates should have zero time - e.g. be exact dates',
            params: { type: e.type },
            input: value,
          });
        } else {
          ctx.addIssue({
            code: 'custom',
            message: `Input should be a valid date or datetime, ${e.error}`,
            params: { type: e.type, ctx: { error: e.error } },
            input: value,
          });
        }
      }),
    )
    .transform((s) => s.slice(0, 10))
    .meta({ format: 'date' });

const intString = /^\s*[+-]?\d+\s*$/;

/** An integer, accepting what Pydantic's lax mode accepts: integral floats and numeric strings. */
export const laxInt = (schema: z.ZodInt = z.int()) =>
  z.preprocess((v) => {
    if (typeof v === 'string' && intString.test(v)) return Number(v);
    return v;
  }, schema);

const truthy = new Set(['true', '1', 'yes', 'on', 't', 'y']);
const falsy = new Set(['false', '0', 'no', 'off', 'f', 'n']);

/** A boolean, accepting Pydantic's lax strings and 0/1. */
export const laxBool = () =>
  z.preprocess((v) => {
    if (typeof v === 'string') {
      const s = v.toLowerCase();
      if (truthy.has(s)) return true;
      if (falsy.has(s)) return false;
    }
    if (v === 0 || v === 1) return v === 1;
    return v;
  }, z.boolean());

const floatString = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/** A number, accepting numeric strings as Pydantic does; errors read as Pydantic's float errors. */
export const laxNumber = () =>
  z
    .unknown()
    .check(
      z.superRefine((v, ctx) => {
        if (typeof v === 'number' && Number.isFinite(v)) return;
        if (typeof v === 'string' && floatString.test(v)) return;
        if (typeof v === 'string')
          ctx.addIssue({
            code: 'custom',
            message: 'Input should be a valid number, unable to parse string as a number',
            params: { type: 'float_parsing' },
            input: v,
          });
        else
          ctx.addIssue({
            code: 'custom',
            message: 'Input should be a valid number',
            params: { type: 'float_type' },
            input: v,
          });
      }),
    )
    .transform((v) => Number(v))
    .meta({ type: 'number' });
