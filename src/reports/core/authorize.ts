import { ForbiddenError, NotFoundError } from '../../errors.ts';
import type { OwnedKind } from '../../engine/tenant-catalog.ts';
import type { CallContext } from '../endpoint.ts';

/** Refuses an object of another organization (403) or of none (404), before anything is read. */
export function authorize(ctx: CallContext, objects: readonly { kind: OwnedKind; id: string }[]): void {
  for (const { kind, id } of objects) {
    const owner = ctx.core.catalog.ownerOf(kind, id);
    if (owner === undefined) throw new NotFoundError(`${kind} ${id} not found`);
    if (owner !== ctx.organizationId) throw new ForbiddenError(`this API key has no access to ${kind} ${id}`);
  }
}

/** A report that reads one category, which must be the caller's. */
export const ownsCategory = (plan: { readonly categoryId: string }, ctx: CallContext): void =>
  authorize(ctx, [{ kind: 'category', id: plan.categoryId }]);
