import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import { type Engine } from '../src/library/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { endpoints } from '../src/registry.ts';
import { fuzzRequests, send, type FuzzOutcome } from './fuzz/fuzz-core.ts';
import { orgHints } from './fuzz/hints.ts';
import { startServer, type TestServer } from './helpers/server.ts';

let engine: Engine;
let server: TestServer;
let key: string;
let orgId: string;
beforeAll(async () => {
  engine = await openEngine({ data: sampleDir });
  orgId = (await engine.listOrganizations())[0]!.id;
  server = await startServer(engine, { rateLimit: false });
  key = await server.key(orgId);
});
afterAll(async () => {
  await server.close();
  engine.close();
});

describe('fuzzing every endpoint over HTTP (a bounded sample; `npm run fuzz` runs long campaigns)', () => {
  it('answers valid, near-valid and garbage requests with a 2xx or a documented 4xx, never a 5xx or a hang', async () => {
    const hints = await orgHints(engine, orgId);
    const outcomes: FuzzOutcome[] = [];
    await fc.assert(
      fc.asyncProperty(fuzzRequests(endpoints, hints), async (request) => {
        const outcome = await send(server.url, key, request);
        outcomes.push(outcome);
        expect(
          outcome.problem?.slice(0, 300) ?? null,
          `${request.endpoint.method} ${request.path.slice(0, 120)}${request.query.slice(0, 120)} ${request.body?.slice(0, 200)}`,
        ).toBeNull();
      }),
      { numRuns: 200 },
    );
    const byKind = (kind: string) =>
      outcomes.filter((o) => o.request.kind === kind && o.request.endpoint.schemas.body).map((o) => o.status);
    expect(byKind('valid').some((s) => s === 200)).toBe(true);
    expect(byKind('garbage').every((s) => s >= 400)).toBe(true);
  });
});
