import { z } from 'zod';
import { valueError, ValidationError } from '../../errors.ts';
import { zUuid } from '../../query/schema-types.ts';
import { authorize } from '../../reports/paged-report.ts';
import type { CallContext, EndpointInput } from '../../reports/endpoint.ts';
import { checkOrganizationIds, parsePath, parseQuery, queryScalar } from '../params.ts';

export const kbPath = z.object({ knowledge_base_id: zUuid() });

/** `organization_id` on every knowledge-base call: when sent, it must be the caller's organization. */
export const organizationQuery = z.object({ organization_id: queryScalar(zUuid()).optional().describe('the caller’s organization (keys see one)') });

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
 * A folder or document path: segments joined by `/`, surrounding slashes and spaces ignored. Empty
 * segments, `.` and `..`, control characters and over-long paths are 422s at `loc`.
 */
export function normalizePath(raw: string, loc: readonly (string | number)[]): string {
  const path = raw.trim().replace(/^\/+|\/+$/g, '');
  const segments = path.split('/');
  const problem =
    path === ''
      ? 'the path is empty'
      : path.length > maxPathLength
        ? `a path has at most ${maxPathLength} characters`
        : segments.length > maxPathDepth
          ? `a path has at most ${maxPathDepth} segments`
          : segments.some((s) => s === '' || s === '.' || s === '..')
            ? 'a path segment may not be empty, "." or ".."'
            : /[\u0000-\u001f\u007f]/.test(path)
              ? 'a path may not contain control characters'
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
