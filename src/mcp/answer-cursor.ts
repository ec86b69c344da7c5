import { ValidationError } from '../errors.ts';

/** Where a bounded answer stopped: the tool's arguments (a report page's own cursor included) and the rows already given. */
export interface AnswerCursor {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly skip: number;
  /** The fingerprint of the answer being continued; null when the next piece is a new page of the report. */
  readonly fingerprint: string | null;
}

/** Cursors longer than this are refused unread: a cursor holds the arguments, which the request body limit bounds. */
export const maxCursorLength = 64 * 1024;

/**
 * The cursor an answer gives to continue it. It is not signed: it only replays arguments, which are
 * checked and authorized again as the caller's on every call, so a forged one gets nothing a plain
 * call would not.
 */
export const encodeCursor = (c: AnswerCursor): string =>
  Buffer.from(JSON.stringify({ t: c.tool, a: c.args, s: c.skip, f: c.fingerprint })).toString('base64url');

export function decodeCursor(text: unknown, tool: string): AnswerCursor {
  const refuse = (msg: string) => ValidationError.of(['arguments', 'result_cursor'], msg, text);
  if (typeof text !== 'string' || text.length > maxCursorLength)
    throw refuse(`a cursor is a string of at most ${maxCursorLength} characters`);
  let raw: { t?: unknown; a?: unknown; s?: unknown; f?: unknown };
  try {
    raw = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as typeof raw;
  } catch {
    throw refuse('not a cursor this server gave');
  }
  if (
    raw === null ||
    typeof raw !== 'object' ||
    typeof raw.a !== 'object' ||
    raw.a === null ||
    !Number.isSafeInteger(raw.s) ||
    (raw.s as number) < 0 ||
    (raw.f !== null && typeof raw.f !== 'string')
  ) {
    throw refuse('not a cursor this server gave');
  }
  if (raw.t !== tool) throw refuse(`this cursor continues the tool ${String(raw.t)}, not ${tool}`);
  return { tool, args: raw.a as Record<string, unknown>, skip: raw.s as number, fingerprint: raw.f as string | null };
}
