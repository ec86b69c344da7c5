import { z } from 'zod';
import { NotAcceptableError } from '../errors.ts';
import { parseWith } from '../query/validation.ts';
import { accepts, negotiate } from './accept.ts';
import { formatNames, formats, type FormatName } from './format-names.ts';

const formatParam = z.object({ format: z.enum(formatNames as [FormatName, ...FormatName[]]).optional() });

/** The query parameters without `format`, which the format choice consumes. */
export function withoutFormat(query: unknown): Record<string, unknown> | undefined {
  if (query === null || typeof query !== 'object') return undefined;
  const { format: _format, ...rest } = query as Record<string, unknown>;
  return rest;
}

/**
 * The format a request asks for, from `?format=` and `Accept` together: the URL's when it has one (for
 * tools that cannot set a header, like a spreadsheet's import from a URL), else Accept's. An unknown
 * `format` is a 422 at `["query", "format"]`; a `format` that the Accept header given beside it does not
 * take is a 406, as is an Accept that takes no format. Null for an Accept that takes none.
 */
export function requestedFormat(query: unknown, accept: string | undefined, stream: boolean): FormatName | null {
  const raw = query !== null && typeof query === 'object' ? (query as Record<string, unknown>).format : undefined;
  if (raw === undefined) return negotiate(accept, stream);
  const { format } = parseWith(formatParam, { format: raw }, 'query');
  if (format === undefined) return negotiate(accept, stream);
  if (!accepts(accept, format, stream)) {
    throw new NotAcceptableError(
      `format=${format} (${formats[format].mediaType}) and the Accept header (${accept}) disagree: drop one of them or make them agree`,
    );
  }
  return format;
}
