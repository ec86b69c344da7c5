import { ValidationError } from '../../errors.ts';
import { instantError, resolveInstant, wallOf, wallToInstant } from '../../query/instants.ts';

/** What `compare` asks for: the window before, the same window a year earlier, or a window of its own (`START..END`). */
export type CompareSpec = 'previous_period' | 'previous_year' | { readonly start: string; readonly end: string };

export interface MsWindow {
  readonly startMs: number;
  readonly endMs: number;
}

const dayMs = 86_400_000;
const loc = ['query', 'compare'];

/** Reads `compare`'s value; a `START..END` whose ends are not dates is a 422 at `["query", "compare"]`. */
export function readCompare(text: string): CompareSpec {
  if (text === 'previous_period' || text === 'previous_year') return text;
  const parts = text.split('..');
  const bad =
    parts.length !== 2
      ? 'compare is previous_period, previous_year or START..END'
      : (instantError(parts[0]!) ?? instantError(parts[1]!));
  if (bad !== null) throw ValidationError.of(loc, bad, text);
  return { start: parts[0]!, end: parts[1]! };
}

/** One year earlier on the wall clock of `zone` (29 February reads as 1 March). */
function yearEarlier(ms: number, zone: string): number {
  const wall = new Date(wallOf(zone, ms));
  wall.setUTCFullYear(wall.getUTCFullYear() - 1);
  return wallToInstant(zone, wall.getTime());
}

/**
 * The window compared with `[startMs, endMs)` in `zone`. The previous period ends where the window
 * starts and is as long: as many calendar days when both ends are midnights in the zone (so a window
 * across a DST change compares whole days), else as many milliseconds.
 */
export function comparedWindow(spec: CompareSpec, w: MsWindow, zone: string, maxDays: number): MsWindow {
  if (spec === 'previous_year') return { startMs: yearEarlier(w.startMs, zone), endMs: yearEarlier(w.endMs, zone) };
  if (spec === 'previous_period') {
    const [ws, we] = [wallOf(zone, w.startMs), wallOf(zone, w.endMs)];
    if (ws % dayMs === 0 && we % dayMs === 0) return { startMs: wallToInstant(zone, ws - (we - ws)), endMs: w.startMs };
    return { startMs: w.startMs - (w.endMs - w.startMs), endMs: w.startMs };
  }
  const out = { startMs: resolveInstant(spec.start, zone), endMs: resolveInstant(spec.end, zone) };
  if (out.endMs <= out.startMs)
    throw ValidationError.of(loc, 'the compared window must end after it starts', `${spec.start}..${spec.end}`);
  if (out.endMs - out.startMs > maxDays * dayMs)
    throw ValidationError.of(loc, `the compared window is longer than ${maxDays} days`, `${spec.start}..${spec.end}`);
  return out;
}
