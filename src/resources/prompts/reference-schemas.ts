import { z } from 'zod';
import { maxNameLength, maxPromptLength, maxRefsPerPrompt } from '../../limits.ts';
import { canonicalUuid, uuidError } from '../../query/schema-types.ts';

/** A reference to a topic, tag, region, platform, persona or asset: by id, by name, or both. */
export interface IdOrName {
  readonly id: string | null;
  readonly name: string | null;
}

/** C0 and C1 control characters, NUL included: never part of a name (they break logs, CSV and terminals). */
export const controlCharacters = /[\u0000-\u001f\u007f-\u009f]/;

type RefineCtx = {
  addIssue(issue: {
    code: 'custom';
    message: string;
    path?: (string | number)[];
    params?: Record<string, unknown>;
    input: unknown;
  }): void;
};

/** Pushes the issue of a name (or id) that is too long or carries control characters; false when there is one. */
function checkName(v: string, ctx: RefineCtx, path: (string | number)[] = []): boolean {
  if (v.length > maxNameLength) {
    ctx.addIssue({
      code: 'custom',
      path,
      message: `String should have at most ${maxNameLength} characters`,
      params: { type: 'string_too_long', ctx: { max_length: maxNameLength } },
      input: v,
    });
    return false;
  }
  if (controlCharacters.test(v)) {
    ctx.addIssue({
      code: 'custom',
      path,
      message: 'a name may not contain control characters (U+0000 to U+001F, U+007F to U+009F)',
      input: v,
    });
    return false;
  }
  return true;
}

/**
 * `{id, name}` with either key, or a plain string: a UUID is looked up as an id, anything else as a
 * name (what the real service accepts beyond the client's types). Names are at most `maxNameLength`
 * characters without control characters.
 */
export const idOrName = () =>
  z
    .unknown()
    .transform((v, ctx): IdOrName => {
      if (typeof v === 'string') {
        if (v.trim() === '') {
          ctx.addIssue({ code: 'custom', message: 'give an id or a name', input: v });
          return z.NEVER;
        }
        if (!checkName(v, ctx)) return z.NEVER;
        return uuidError(v) === null ? { id: canonicalUuid(v), name: null } : { id: null, name: v };
      }
      if (v === null || typeof v !== 'object' || Array.isArray(v)) {
        ctx.addIssue({
          code: 'custom',
          message: 'Input should be a valid dictionary or object to extract fields from',
          params: { type: 'model_attributes_type' },
          input: v,
        });
        return z.NEVER;
      }
      const o = v as Record<string, unknown>;
      let ok = true;
      for (const k of Object.keys(o)) {
        if (k === 'id' || k === 'name') continue;
        ctx.addIssue({
          code: 'custom',
          path: [k],
          message: 'Extra inputs are not permitted',
          params: { type: 'extra_forbidden' },
          input: o[k],
        });
        ok = false;
      }
      for (const k of ['id', 'name']) {
        if (o[k] === undefined || o[k] === null) continue;
        if (typeof o[k] === 'string') {
          ok = checkName(o[k], ctx, [k]) && ok;
          continue;
        }
        ctx.addIssue({
          code: 'custom',
          path: [k],
          message: 'Input should be a valid string',
          params: { type: 'string_type' },
          input: o[k],
        });
        ok = false;
      }
      if (!ok) return z.NEVER;
      const id =
        typeof o.id === 'string' && o.id !== '' ? (uuidError(o.id) === null ? canonicalUuid(o.id) : o.id) : null;
      const name = typeof o.name === 'string' && o.name.trim() !== '' ? o.name : null;
      if (id === null && name === null) {
        ctx.addIssue({ code: 'custom', message: 'give an id or a name', input: v });
        return z.NEVER;
      }
      return { id, name };
    })
    .meta({
      description:
        'A reference {id, name} (either key) or a plain string: a UUID is looked up as an id, anything else as a name.',
      anyOf: [
        { type: 'string', maxLength: maxNameLength },
        {
          type: 'object',
          properties: {
            id: { type: ['string', 'null'], maxLength: maxNameLength },
            name: { type: ['string', 'null'], maxLength: maxNameLength },
          },
          additionalProperties: false,
        },
      ],
    });

/** A list of references on one prompt: tags, personas, regions or platforms. */
export const refList = () => z.array(idOrName()).max(maxRefsPerPrompt);

/** Line breaks and tabs may format a prompt's text; other control characters may not. */
const promptControls = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

export const promptText = () =>
  z
    .string()
    .min(1)
    .max(maxPromptLength)
    .refine(
      (v) => !promptControls.test(v),
      'a prompt may not contain control characters other than tabs and line breaks',
    );
