import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openEngine } from '../src/open-engine.ts';
import { type Engine } from '../src/library/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import type { Endpoint } from '../src/reports/endpoint.ts';
import { endpoints } from '../src/registry.ts';
import { injectionCorpus } from './fuzz/garbage.ts';
import { orgHints } from './fuzz/hints.ts';
import { send, type FuzzRequest } from './fuzz/fuzz-core.ts';
import { sampleValid, type Hints } from './fuzz/zod-sample.ts';
import { startServer, type TestServer } from './helpers/server.ts';

let engine: Engine;
let server: TestServer;
let key: string;
let hints: Hints;
let foreignTokens: string[];
beforeAll(async () => {
  engine = await openEngine({ data: sampleDir });
  const orgs = await engine.listOrganizations();
  server = await startServer(engine, { rateLimit: false });
  key = await server.key(orgs[0]!.id);
  hints = await orgHints(engine, orgs[0]!.id);
  foreignTokens = orgs
    .slice(1)
    .flatMap((o) => [o.id, o.name, ...o.categories.flatMap((c) => [c.id, c.name]), ...o.assets.map((a) => a.name)]);
});
afterAll(async () => {
  await server.close();
  await engine.close();
});

/** Filter fields any report might declare: unknown ones are 422s, known ones compile the payload as a bound value. */
const fields = [
  'model',
  'topic',
  'region',
  'persona',
  'prompt',
  'tag',
  'brand',
  'merchant',
  'channel',
  'domain',
  'page',
  'citation_tag',
  'hostname',
  'path',
  'url',
  'root_domain',
  'bot_name',
  'referral_source',
  'theme',
  'asset_name',
];
const rnd = (() => {
  let s = 42;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
})();

function bodiesWith(endpoint: Endpoint, payload: string): unknown[] {
  const schema = endpoint.schemas.body;
  if (!schema) return [];
  const base = sampleValid(schema, 'body', hints, rnd) as Record<string, unknown>;
  const shape = ((schema as unknown as { _zod: { def: { shape?: Record<string, z.ZodType> } } })._zod.def.shape ??
    {}) as Record<string, z.ZodType>;
  const out: unknown[] = Object.keys(shape).map((k) => ({ ...base, [k]: payload }));
  out.push(
    { ...base, cursor: payload },
    { ...base, order_by: { [payload]: 'asc' } },
    { ...base, sort: { field: payload } },
  );
  for (const field of fields) {
    out.push({ ...base, filter: { field, op: 'is', value: payload } });
    out.push({
      ...base,
      filter: {
        and: [
          { field, op: 'in', value: [payload, 'x'] },
          { not: { field, op: 'contains_case_insensitive', value: payload } },
        ],
      },
    });
    out.push({ ...base, filter: { field, op: 'matches', value: payload } });
    out.push({
      ...base,
      filters: [
        { field, operator: 'matches', value: payload },
        { field, operator: 'in', value: [payload] },
      ],
    });
  }
  return out;
}

describe('the injection corpus through every string a request carries (all of it with AEA_INJECTION_FULL=1)', () => {
  it(
    'never causes a database error, a 5xx, a hang or data beyond the key’s scope',
    async () => {
      let sent = 0;
      const full = process.env.AEA_INJECTION_FULL === '1';
      for (const [i, endpoint] of endpoints.entries()) {
        const payloads = full ? injectionCorpus : injectionCorpus.filter((_, j) => (j + i) % 20 === 0);
        for (const payload of payloads) {
          const requests: FuzzRequest[] = bodiesWith(endpoint, payload).map((b) => ({
            kind: 'near-valid',
            endpoint,
            path: endpoint.path.replace(/\{([a-z_]+)\}/g, (_, n: string) =>
              encodeURIComponent(String(hints.value(n, 'uuid'))),
            ),
            body: JSON.stringify(b),
            query: '',
          }));
          if (/\{/.test(endpoint.path) && !/[\ud800-\udfff]/.test(payload)) {
            requests.push({
              kind: 'near-valid',
              endpoint,
              path: endpoint.path.replace(/\{([a-z_]+)\}/g, () => encodeURIComponent(payload)),
              body: undefined,
              query: '',
            });
          }
          if (endpoint.schemas.query && !/[\ud800-\udfff]/.test(payload)) {
            requests.push({
              kind: 'near-valid',
              endpoint,
              path: endpoint.path.replace(/\{([a-z_]+)\}/g, (_, n: string) =>
                encodeURIComponent(String(hints.value(n, 'uuid'))),
              ),
              body: undefined,
              query: `?cursor=${encodeURIComponent(payload)}&limit=${encodeURIComponent(payload)}`,
            });
          }
          const outcomes = await Promise.all(requests.map((r) => send(server.url, key, r, 15_000)));
          for (const o of outcomes) {
            sent++;
            expect(
              o.problem?.slice(0, 300) ?? null,
              `${endpoint.method} ${endpoint.path} with ${JSON.stringify(payload)}`,
            ).toBeNull();
          }
        }
      }
      expect(sent).toBeGreaterThan(full ? 5000 : 400);
      if (full)
        process.stderr.write(
          `injection: ${sent} requests to ${endpoints.length} operations, ${injectionCorpus.length} payloads, 0 problems\n`,
        );
    },
    process.env.AEA_INJECTION_FULL === '1' ? 3_600_000 : 240_000,
  );

  it('keeps answers to injected filters inside the organization', async () => {
    const visibility = endpoints.find((e) => e.path === '/v2/reports/visibility')!;
    for (const payload of ["' OR '1'='1", "x') OR (1=1", '%', '_']) {
      for (const body of bodiesWith(visibility, payload)) {
        const r = await fetch(`${server.url}/v2/reports/visibility`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const text = await r.text();
        for (const token of foreignTokens)
          expect(text.includes(token), `${token} leaked for ${JSON.stringify(body).slice(0, 200)}`).toBe(false);
      }
    }
  });
});
