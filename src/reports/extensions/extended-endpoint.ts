import { ValidationError, valueError } from '../../errors.ts';
import { parseWith } from '../../query/validation.ts';
import type { CallContext, Endpoint, EndpointInput, EndpointResult, RowsResult } from '../endpoint.ts';
import { explainBody } from './explain.ts';
import { answerFingerprint } from './fingerprint.ts';
import { keptOnRead, replayed } from './cached-answer.ts';
import { appliesTo, askedFor, parseExtensions, querySchemaFor, type Extensions } from './options.ts';

/**
 * A report endpoint with the extensions (src/reports/extensions/options.ts): its query parameters are
 * the extensions, its answer carries a fingerprint (in the head, `info.fingerprint` or the stream's
 * first event, and for HTTP in the ETag), and a caller that already holds that fingerprint gets a 304
 * before any data is read. Endpoints that cannot prepare a call without reading data are left as they are.
 */
export function withExtensions(endpoint: Endpoint): Endpoint {
  const prepare = endpoint.prepare;
  if (endpoint.group !== 'reports' || !prepare) return endpoint;
  return {
    ...endpoint,
    schemas: { ...endpoint.schemas, query: querySchemaFor(endpoint.extensions ?? []) },
    async handle(input: EndpointInput, ctx: CallContext): Promise<EndpointResult> {
      const extensions = parseExtensions(input.query);
      const refused = askedFor(extensions).filter((name) => !(endpoint.extensions ?? []).includes(name));
      if (refused.length > 0) {
        throw new ValidationError(
          refused.map((name) =>
            valueError(
              ['query', name],
              `${name} does not apply to ${endpoint.path}: it applies to ${appliesTo[name]} for now (docs/extensions.md)`,
              input.query?.[name],
            ),
          ),
        );
      }
      const format = input.format ?? 'json';
      if (extensions.explain) {
        if (format !== 'json')
          throw ValidationError.of(
            ['query', 'explain'],
            `explain answers JSON only; ask for application/json (got the ${format} format)`,
            'true',
          );
        return explain(endpoint, input, ctx, extensions);
      }
      const prepared = await prepare(input, ctx, { lookup: 'use', extensions });
      const fp = await answerFingerprint(ctx, prepared, prepared.normalized, extensions, format);
      if (matches(input.ifNoneMatch, fp)) return { kind: 'json', status: 304, json: '', fingerprint: fp };
      const kept = ctx.core.results.get(fp);
      if (kept) return replayed(kept, fp);
      return keptOnRead(withFingerprint(await prepared.run(), fp), ctx.core.results, fp);
    },
  };
}

const matches = (tags: readonly string[] | undefined, fp: string) =>
  tags !== undefined && (tags.includes(fp) || tags.includes('*'));

async function explain(
  endpoint: Endpoint,
  input: EndpointInput,
  ctx: CallContext,
  extensions: Extensions,
): Promise<EndpointResult> {
  const prepared = await endpoint.prepare!(input, ctx, { lookup: 'look', extensions });
  const request = endpoint.schemas.body ? parseWith(endpoint.schemas.body, input.body) : null;
  const answer = await answerFingerprint(ctx, prepared, prepared.normalized, { ...extensions, explain: false }, 'json');
  // The rollups chosen change the SQL shown, so they are part of what the explain answer's fingerprint covers.
  const fp = await answerFingerprint(
    ctx,
    prepared,
    { request: prepared.normalized, rollups: prepared.rollups.chosen },
    extensions,
    'json',
  );
  if (matches(input.ifNoneMatch, fp)) return { kind: 'json', status: 304, json: '', fingerprint: fp };
  const body = await explainBody(ctx, `${endpoint.method} ${endpoint.path}`, request, prepared, { answer });
  return { kind: 'json', status: 200, json: JSON.stringify({ explain: body, fingerprint: fp }), fingerprint: fp };
}

/** The rows result with the fingerprint in its head, so every encoding carries it (`info.fingerprint`). */
function withFingerprint(result: RowsResult, fp: string): RowsResult {
  return {
    ...result,
    fingerprint: fp,
    read: async function* () {
      for await (const part of result.read()) yield 'head' in part ? { head: { ...part.head, fingerprint: fp } } : part;
    },
  };
}
