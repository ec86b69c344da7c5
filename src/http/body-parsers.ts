import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../errors.ts';
import { JsonDecodeError, pythonJsonParse } from './python-json.ts';

/** A body sent with a non-JSON content type: FastAPI does not parse it, and a model body then fails with the raw text as input. */
export class NonJsonBody {
  constructor(readonly text: string) {}
}

export const bodyLimit = 1024 * 1024;

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
    try {
      return done(null, JSON.parse(text));
    } catch {
      try {
        return done(null, pythonJsonParse(text));
      } catch (error) {
        const e = error as JsonDecodeError;
        return done(new ValidationError([{ type: 'json_invalid', loc: ['body', e.pos], msg: 'JSON decode error', input: {}, ctx: { error: e.reason } }]), undefined);
      }
    }
  });
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit }, (_req, raw, done) => {
    const text = String(raw);
    done(null, text === '' ? undefined : new NonJsonBody(text));
  });
}
