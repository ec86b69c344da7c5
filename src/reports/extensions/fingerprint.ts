import { engineVersion, formatsVersion } from '../../engine/engine-version.ts';
import { fingerprint } from '../../query/cursor.ts';
import type { FormatName } from '../../formats/format-names.ts';
import type { CallContext, PreparedCall } from '../endpoint.ts';
import type { Extensions } from './options.ts';

/**
 * A fingerprint of an answer: the report and mode (alias paths share them), the organization, the normalized request (the plan,
 * which holds the clock reading wherever it matters), the extensions, the output format, the dataset's
 * and state store's content version, the engine version and, for a table format, the formats version (a page's normalized request names the
 * key its cursors are signed with). Whatever else differs between two calls (a rollup built or not, the order rows are
 * stored in) gives the same bytes, so the same fingerprint always means a byte-identical body.
 */
export async function answerFingerprint(
  ctx: CallContext,
  prepared: PreparedCall,
  normalized: unknown,
  extensions: Extensions,
  format: FormatName,
): Promise<string> {
  return fingerprint({
    report: prepared.report,
    organization: ctx.organizationId,
    request: normalized,
    // Only the extensions asked for, so that a plain request keeps its fingerprint when extensions are added.
    extensions: Object.fromEntries(Object.entries(extensions).filter(([, v]) => v !== null && v !== false)),
    format,
    dataset: await ctx.core.version.current(),
    engine: engineVersion,
    ...(format === 'json' ? {} : { formats: formatsVersion }),
  });
}

/** The HTTP entity tag of a fingerprint. */
export const etagOf = (fp: string): string => `"${fp}"`;

/** The fingerprints an If-None-Match header names (`*` matches any). */
export function ifNoneMatchTags(header: string | string[] | undefined): string[] {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  return text
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .filter((t) => t.length > 0)
    .map((t) => (t === '*' ? t : t.replace(/^"(.*)"$/, '$1')));
}
