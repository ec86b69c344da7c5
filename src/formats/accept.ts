import { formats, type FormatName } from './format-names.ts';

interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

/** At most this many media ranges of one Accept header are read; the rest are ignored. */
export const maxMediaRanges = 32;

function parseAccept(header: string): MediaRange[] {
  return header
    .split(',')
    .slice(0, maxMediaRanges)
    .flatMap((part) => {
      const [range = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
      const [type, subtype] = range.split('/');
      if (!type || !subtype) return [];
      const q = params.map((p) => /^q=([0-9.]+)$/.exec(p)?.[1]).find((v) => v !== undefined);
      const weight = q === undefined ? 1 : Number(q);
      return [{ type, subtype, q: Number.isFinite(weight) ? Math.min(1, weight) : 0 }];
    });
}

/** The q of a media type under the most specific range that matches it (0 when none does). */
function quality(ranges: readonly MediaRange[], mediaType: string): number {
  const [type, subtype] = mediaType.split('/');
  let best: { specificity: number; q: number } | undefined;
  for (const r of ranges) {
    const specificity =
      r.type === type && r.subtype === subtype
        ? 2
        : r.type === type && r.subtype === '*'
          ? 1
          : r.type === '*' && r.subtype === '*'
            ? 0
            : -1;
    if (specificity >= 0 && (!best || specificity > best.specificity)) best = { specificity, q: r.q };
  }
  return best?.q ?? 0;
}

/**
 * The format an Accept header asks for, or null when it accepts none (a 406). A missing or empty header
 * is the spec's JSON. On a stream endpoint the spec's encoding is `text/event-stream`, and
 * `application/json` keeps naming it, as before formats existed. Ties go to JSON, then the order of
 * `formats`, so a bare wildcard stays JSON.
 */
export function negotiate(accept: string | undefined, stream: boolean): FormatName | null {
  if (accept === undefined || accept.trim() === '') return 'json';
  const ranges = parseAccept(accept);
  const offers: [FormatName, string][] = Object.entries(formats).map(([name, f]) => [name as FormatName, f.mediaType]);
  if (stream) offers.splice(1, 0, ['json', 'text/event-stream']);
  let chosen: FormatName | null = null;
  let best = 0;
  for (const [name, mediaType] of offers) {
    const q = quality(ranges, mediaType);
    if (q > best) [chosen, best] = [name, q];
  }
  return chosen;
}

/** Whether an Accept header takes a format: a missing or empty header takes any. */
export function accepts(accept: string | undefined, format: FormatName, stream: boolean): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  const ranges = parseAccept(accept);
  const mediaTypes =
    format === 'json' && stream ? ['text/event-stream', formats.json.mediaType] : [formats[format].mediaType];
  return mediaTypes.some((m) => quality(ranges, m) > 0);
}
