import { z } from 'zod';
import { valueError, ValidationError } from '../../errors.ts';
import { zUuid } from '../../query/schema-types.ts';
import { authorize } from '../../reports/core/authorize.ts';
import type { CallContext, EndpointInput } from '../../reports/endpoint.ts';
import { checkOrganizationIds, parsePath, parseQuery, queryScalar } from '../params.ts';

export const kbPath = z.object({ knowledge_base_id: zUuid() });

/** `organization_id` on every knowledge-base call: when sent, it must be the caller's organization. */
export const organizationQuery = z.object({
  organization_id: queryScalar(zUuid()).optional().describe('the caller’s organization (keys see one)'),
});

/** The knowledge base of the path, after the tenancy checks (403 another organization's, 404 none's). */
export function knowledgeBaseOf(input: EndpointInput, ctx: CallContext): string {
  const { knowledge_base_id } = parsePath(kbPath, input);
  const { organization_id } = parseQuery(organizationQuery, input);
  checkOrganizationIds(organization_id ? [organization_id] : [], ctx);
  authorize(ctx, [{ kind: 'knowledge_base', id: knowledge_base_id }]);
  return knowledge_base_id;
}

/** Paths are at most this long and this deep; a segment at most 255 characters. */
export const maxPathLength = 1024;
export const maxPathDepth = 16;

/**
 * C0 and C1 controls, and the bidirectional marks, embeddings, overrides and isolates that make a path
 * read differently from what it is (U+202E shows `exe.md` as `dm.exe`).
 */
const forbiddenInPath = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * A folder or document path: Unicode NFC (so `café.md` typed either way is one path), segments joined by
 * `/`, surrounding slashes and spaces ignored. Empty segments, `.` and `..`, control characters and
 * over-long paths are 422s at `loc`; `what` names the path in the message when it is assembled from parts.
 */
export function normalizePath(raw: string, loc: readonly (string | number)[], what = 'a path'): string {
  const path = raw
    .normalize('NFC')
    .trim()
    .replace(/^\/+|\/+$/g, '');
  const segments = path.split('/');
  const problem =
    path === ''
      ? 'the path is empty'
      : path.length > maxPathLength
        ? `${what} has at most ${maxPathLength} characters`
        : segments.length > maxPathDepth
          ? `${what} has at most ${maxPathDepth} segments`
          : segments.some((s) => s === '' || s === '.' || s === '..')
            ? 'a path segment may not be empty, "." or ".."'
            : forbiddenInPath.test(path)
              ? 'a path may not contain control characters (U+0000–U+001F, U+007F–U+009F) or bidirectional controls (U+200E, U+200F, U+202A–U+202E, U+2066–U+2069)'
              : segments.some((s) => s.length > 255)
                ? 'a path segment has at most 255 characters'
                : null;
  if (problem) throw new ValidationError([valueError(loc, problem, raw)]);
  return path;
}

/** Every folder above a path and the path's own folder: `a/b/c.md` → `a`, `a/b`. */
export const ancestorsOf = (path: string): string[] => {
  const segments = path.split('/');
  return segments.slice(0, -1).map((_, i) => segments.slice(0, i + 1).join('/'));
};
