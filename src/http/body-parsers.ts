import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../errors.ts';
import { maxBodyBytes, maxJsonDepth } from '../limits.ts';
import { JsonDecodeError, pythonJsonParse } from './python-json.ts';

/** A body sent with a non-JSON content type: FastAPI does not parse it, and a model body then fails with the raw text as input. */
export class NonJsonBody {
  constructor(readonly text: string) {}
}

export const bodyLimit = maxBodyBytes;

/**
 * Where a JSON text first nests arrays and objects deeper than `max`, or -1. A linear scan that skips
 * strings, run before any parser: parsers, validators and the error body all recurse over the value,
 * and a deep enough one overflows the stack.
 */
export function tooDeepAt(text: string, max: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return i;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return -1;
}

/**
 * JSON bodies are parsed as FastAPI parses them: an empty body is no body, a malformed one is a 422
 * `json_invalid` with Python's decoder message and character position, and any other content type is
 * kept as text instead of a 415.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (_req, raw, done) => {
    const text = String(raw);
    if (text.trim() === '') return done(null, undefined);
    const deep = tooDeepAt(text, maxJsonDepth);
    if (deep >= 0) {
      return done(
        new ValidationError([
          {
            type: 'json_invalid',
            loc: ['body', [...text.slice(0, deep)].length],
            msg: 'JSON decode error',
            input: {},
            ctx: { error: `Nesting deeper than ${maxJsonDepth} levels` },
          },
        ]),
        undefined,
      );
    }
    try {
      return done(null, JSON.parse(text));
    } catch {
      try {
        return done(null, pythonJsonParse(text));
      } catch (error) {
        const e = error as JsonDecodeError;
        return done(
          new ValidationError([
            {
              type: 'json_invalid',
              loc: ['body', e.pos],
              msg: 'JSON decode error',
              input: {},
              ctx: { error: e.reason },
            },
          ]),
          undefined,
        );
      }
    }
  });
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit }, (_req, raw, done) => {
    const text = String(raw);
    done(null, text === '' ? undefined : new NonJsonBody(text));
  });
}
