import type { z } from 'zod';
import { loopTurn } from './loop-turns.ts';
import { ValidationError, type ValidationIssue } from '../errors.ts';

type Loc = (string | number)[];
type ZodIssue = z.core.$ZodIssue & { input?: unknown; params?: Record<string, unknown> };

/** Parses a request part with a zod schema; a failure is a FastAPI-shaped ValidationError (loc starts with `part`). */
export function parseWith<S extends z.ZodType>(
  schema: S,
  input: unknown,
  part: 'body' | 'query' | 'path' = 'body',
): z.output<S> {
  if (part === 'body' && (input === undefined || input === null)) {
    throw new ValidationError([{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
  }
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  throw new ValidationError(toDetail(result.error.issues as ZodIssue[], input, [part]));
}

/**
 * `parseWith` for a body whose `key` holds a long list: `envelope` checks the body with the list's
 * items left unchecked, then each item is checked with `item` a slice at a time, so a large body never
 * holds the event loop. The issues are those one schema over the whole body gives.
 */
export async function parseListBody<T>(envelope: z.ZodType, key: string, item: z.ZodType, input: unknown): Promise<T> {
  const head = parseOr(envelope, input);
  const list = (input as Record<string, unknown> | null)?.[key];
  const issues: ValidationIssue[] = [];
  const items: unknown[] = [];
  if (Array.isArray(list) && !head.issues.some((i) => i.loc.length === 2 && i.loc[1] === key)) {
    for (const [i, value] of list.entries()) {
      const result = item.safeParse(value, { reportInput: true });
      if (result.success) items.push(result.data);
      else issues.push(...toDetail(result.error.issues as ZodIssue[], value, ['body', key, i]));
      await loopTurn();
    }
  }
  issues.push(...head.issues);
  if (issues.length > 0) throw new ValidationError(issues);
  return { ...(head.value as object), [key]: items } as T;
}

function parseOr(schema: z.ZodType, input: unknown): { value?: unknown; issues: ValidationIssue[] } {
  try {
    return { value: parseWith(schema, input), issues: [] };
  } catch (error) {
    if (error instanceof ValidationError) return { issues: [...error.detail] };
    throw error;
  }
}

/** zod issues to Pydantic v2 errors: one per location, the first failing constraint wins. */
export function toDetail(issues: readonly ZodIssue[], root: unknown, prefix: Loc): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const seen = new Set<string>();
  const push = (issue: ValidationIssue) => {
    const key = JSON.stringify(issue.loc);
    if (seen.has(key)) return;
    seen.add(key);
    out.push(issue);
  };
  for (const issue of issues) {
    const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    const loc = [...prefix, ...path];
    if (issue.code === 'unrecognized_keys') {
      const parent = valueAt(root, path) as Record<string, unknown>;
      for (const key of issue.keys) {
        push({
          type: 'extra_forbidden',
          loc: [...loc, key],
          msg: 'Extra inputs are not permitted',
          input: parent?.[key],
        });
      }
      continue;
    }
    push(translate(issue, loc, root, path));
  }
  return out;
}

function translate(issue: ZodIssue, loc: Loc, root: unknown, path: Loc): ValidationIssue {
  const input = issue.input;
  switch (issue.code) {
    case 'invalid_type': {
      if (!('input' in issue) || issue.input === undefined) {
        if (isMissing(root, path))
          return { type: 'missing', loc, msg: 'Field required', input: valueAt(root, path.slice(0, -1)) };
      }
      return typeError(issue.expected, loc, input);
    }
    case 'invalid_value': {
      const expected = quoteList(issue.values.map((v) => String(v)));
      return { type: 'literal_error', loc, msg: `Input should be ${expected}`, input, ctx: { expected } };
    }
    case 'too_small':
      return bound('small', issue.origin, Number(issue.minimum), issue.inclusive ?? true, loc, input);
    case 'too_big':
      return bound('big', issue.origin, Number(issue.maximum), issue.inclusive ?? true, loc, input);
    case 'invalid_format': {
      // zod gives a regex as its text between slashes (`/^a+$/`); Pydantic names the pattern itself.
      const pattern = issue.pattern?.replace(/^\/(.*)\/[a-z]*$/s, '$1') ?? issue.format;
      return {
        type: 'string_pattern_mismatch',
        loc,
        msg: `String should match pattern '${pattern}'`,
        input,
        ctx: { pattern },
      };
    }
    case 'custom': {
      const p = issue.params ?? {};
      if (typeof p.type === 'string') {
        return {
          type: p.type,
          loc,
          msg: issue.message,
          input,
          ...(p.ctx ? { ctx: p.ctx as Record<string, unknown> } : {}),
        };
      }
      return { type: 'value_error', loc, msg: `Value error, ${issue.message}`, input, ctx: { error: issue.message } };
    }
    default:
      return { type: 'value_error', loc, msg: `Value error, ${issue.message}`, input, ctx: { error: issue.message } };
  }
}

/** zod reports `number` for both int and float schemas; integers are the common case here, floats use `laxNumber`. */
function typeError(expected: string, loc: Loc, input: unknown): ValidationIssue {
  switch (expected) {
    case 'string':
      return { type: 'string_type', loc, msg: 'Input should be a valid string', input };
    case 'int':
    case 'number':
      if (typeof input === 'number' && Number.isFinite(input)) {
        return {
          type: 'int_from_float',
          loc,
          msg: 'Input should be a valid integer, got a number with a fractional part',
          input,
        };
      }
      if (typeof input === 'string')
        return {
          type: 'int_parsing',
          loc,
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input,
        };
      return { type: 'int_type', loc, msg: 'Input should be a valid integer', input };
    case 'boolean':
      if (typeof input === 'string' || typeof input === 'number')
        return { type: 'bool_parsing', loc, msg: 'Input should be a valid boolean, unable to interpret input', input };
      return { type: 'bool_type', loc, msg: 'Input should be a valid boolean', input };
    case 'array':
      return { type: 'list_type', loc, msg: 'Input should be a valid list', input };
    case 'object':
    case 'record':
      return {
        type: 'model_attributes_type',
        loc,
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input,
      };
    default:
      return { type: `${expected}_type`, loc, msg: `Input should be a valid ${expected}`, input };
  }
}

function bound(
  side: 'small' | 'big',
  origin: string,
  limit: number,
  inclusive: boolean,
  loc: Loc,
  input: unknown,
): ValidationIssue {
  if (origin === 'string') {
    const unit = limit === 1 ? 'character' : 'characters';
    return side === 'small'
      ? {
          type: 'string_too_short',
          loc,
          msg: `String should have at least ${limit} ${unit}`,
          input,
          ctx: { min_length: limit },
        }
      : {
          type: 'string_too_long',
          loc,
          msg: `String should have at most ${limit} ${unit}`,
          input,
          ctx: { max_length: limit },
        };
  }
  if (origin === 'array' || origin === 'set') {
    const actual = Array.isArray(input) ? input.length : 0;
    const unit = limit === 1 ? 'item' : 'items';
    return side === 'small'
      ? {
          type: 'too_short',
          loc,
          msg: `List should have at least ${limit} ${unit} after validation, not ${actual}`,
          input,
          ctx: { field_type: 'List', min_length: limit, actual_length: actual },
        }
      : {
          type: 'too_long',
          loc,
          msg: `List should have at most ${limit} ${unit} after validation, not ${actual}`,
          input,
          ctx: { field_type: 'List', max_length: limit, actual_length: actual },
        };
  }
  if (side === 'small') {
    return inclusive
      ? {
          type: 'greater_than_equal',
          loc,
          msg: `Input should be greater than or equal to ${limit}`,
          input,
          ctx: { ge: limit },
        }
      : { type: 'greater_than', loc, msg: `Input should be greater than ${limit}`, input, ctx: { gt: limit } };
  }
  return inclusive
    ? { type: 'less_than_equal', loc, msg: `Input should be less than or equal to ${limit}`, input, ctx: { le: limit } }
    : { type: 'less_than', loc, msg: `Input should be less than ${limit}`, input, ctx: { lt: limit } };
}

export function quoteList(values: readonly string[]): string {
  const quoted = values.map((v) => `'${v}'`);
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let v = root;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[p];
  }
  return v;
}

function isMissing(root: unknown, path: readonly (string | number)[]): boolean {
  if (path.length === 0) return root === undefined;
  const parent = valueAt(root, path.slice(0, -1));
  // A key set to undefined is missing, as it would be once the body is JSON.
  return (
    parent !== null &&
    typeof parent === 'object' &&
    (parent as Record<string | number, unknown>)[path[path.length - 1]!] === undefined
  );
}
