import { z } from 'zod';
import { ForbiddenError, NotFoundError } from '../errors.ts';
import { authorize } from '../reports/core/authorize.ts';
import type { CallContext, EndpointInput } from '../reports/endpoint.ts';
import { parseWith } from '../query/validation.ts';
import { zUuid } from '../query/schema-types.ts';

type QueryValue = string | string[] | undefined;

/**
 * Query strings as clients send them: `key=a%2Cb` (client 0.46.0), `key=a&key=b`, `key[]=a`. A `key=`
 * with nothing after it is how the client sends null, so it counts as absent.
 */
export function normalizeQuery(query: EndpointInput['query']): Record<string, string[]> {
  // TRICKY: a Map, not an object literal: a parameter named `valueOf` or `constructor` must not meet Object.prototype.
  const out = new Map<string, string[]>();
  for (const [rawKey, value] of Object.entries(query ?? {})) {
    const k = rawKey.endsWith('[]') ? rawKey.slice(0, -2) : rawKey;
    const values = (Array.isArray(value) ? value : [value]).filter(
      (v): v is string => typeof v === 'string' && v !== '',
    );
    if (values.length > 0) out.set(k, [...(out.get(k) ?? []), ...values]);
  }
  return Object.fromEntries(out);
}

/** A list parameter: every value split on commas, empty items dropped. */
export const queryList = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (v: QueryValue) =>
      v === undefined
        ? undefined
        : (Array.isArray(v) ? v : [v])
            .flatMap((s) => s.split(','))
            .map((s) => s.trim())
            .filter((s) => s !== ''),
    z.array(item),
  );

/** A scalar parameter: repeated, the last one wins (as FastAPI does). */
export const queryScalar = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v: QueryValue) => (Array.isArray(v) ? v[v.length - 1] : v), schema);

/** Parses the query string with a zod object; 422 locations start with "query". */
export function parseQuery<S extends z.ZodType>(schema: S, input: EndpointInput): z.output<S> {
  return parseWith(schema, normalizeQuery(input.query), 'query');
}

/** Parses path parameters; 422 locations start with "path". */
export function parsePath<S extends z.ZodType>(schema: S, input: EndpointInput): z.output<S> {
  return parseWith(schema, input.params ?? {}, 'path');
}

export const categoryPath = z.object({ category_id: zUuid() });

/** The category of the path, after the tenancy check (403 another organization's, 404 none's). */
export function categoryOf(input: EndpointInput, ctx: CallContext): string {
  const { category_id } = parsePath(categoryPath, input);
  authorize(ctx, [{ kind: 'category', id: category_id }]);
  return category_id;
}

/** `organization_ids` on the org listings: each must be the caller's organization. */
export const organizationIdsQuery = z.object({ organization_ids: queryList(zUuid()).optional() });

export function checkOrganizationIds(ids: readonly string[] | undefined, ctx: CallContext): void {
  for (const id of ids ?? []) {
    if (id === ctx.organizationId) continue;
    if (ctx.core.catalog.hasOrganization(id))
      throw new ForbiddenError(`this API key has no access to organization ${id}`);
    throw new NotFoundError(`organization ${id} not found`);
  }
}
