import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import { type Engine } from '../src/engine/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { tableNames, tables } from '../src/model/tables.ts';
import { endpoints } from '../src/reports/registry.ts';
import { fuzzRequests, send } from './fuzz/fuzz-core.ts';
import { orgHints } from './fuzz/hints.ts';
import { startServer, type TestServer } from './helpers/server.ts';

let engine: Engine;
let server: TestServer;
let orgIds: string[];
const keys = new Map<string, string>();
/** Per organization: ids and names that belong to it alone, long enough not to occur by accident. */
const exclusive = new Map<string, Set<string>>();

beforeAll(async () => {
  engine = await openEngine({ data: sampleDir });
  orgIds = (await engine.listOrganizations()).map((o) => o.id);
  server = await startServer(engine, { rateLimit: false });
  for (const id of orgIds) keys.set(id, await server.key(id));
  const selects = tableNames
    .filter((t) => tables[t].tenant === 'organization' && !['executions', 'mentions', 'citations', 'sentiments', 'fanouts', 'shopping_results', 'claim_occurrences', 'bot_events', 'referral_visits', 'page_analyses'].includes(t))
    .flatMap((t) => {
      const cols = Object.keys(tables[t].columns);
      const org = t === 'organizations' ? 'id' : 'organization_id';
      return ['id', 'name', 'prompt', 'claim', 'title'].filter((c) => cols.includes(c)).map((c) => `SELECT ${org} AS org, CAST(${c} AS VARCHAR) AS token FROM ${t}`);
    });
  const rows = await engine.core.pool.use(async (c) =>
    (await c.runAndReadAll(`SELECT token, min(org) FROM (${selects.join(' UNION ALL ')}) WHERE length(token) >= 6 GROUP BY token HAVING count(DISTINCT org) = 1`)).getRowsJS(),
  );
  for (const [token, org] of rows) {
    const set = exclusive.get(String(org)) ?? new Set<string>();
    set.add(String(token));
    exclusive.set(String(org), set);
  }
});
afterAll(async () => {
  await server.close();
  engine.close();
});

describe('tenant isolation', () => {
  it('the generator gives every organization names of its own, so a leak is detectable', () => {
    for (const id of orgIds) expect(exclusive.get(id)?.size ?? 0).toBeGreaterThan(50);
  });

  it('no response to any key contains an id or a name of another organization', async () => {
    const hintsByOrg = new Map(await Promise.all(orgIds.map(async (id) => [id, await orgHints(engine, id)] as const)));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...orgIds), fc.integer(), async (orgId, seed) => {
        const [request] = fc.sample(fuzzRequests(endpoints, hintsByOrg.get(orgId)!).filter((r) => r.kind === 'valid'), { numRuns: 1, seed });
        const r = request!;
        const response = await fetch(`${server.url}${r.path}${r.query}`, {
          method: r.endpoint.method,
          headers: { 'x-api-key': keys.get(orgId)!, 'content-type': 'application/json' },
          ...(r.body !== undefined && r.endpoint.method !== 'GET' ? { body: r.body } : {}),
        });
        const text = await response.text();
        for (const [other, tokens] of exclusive) {
          if (other === orgId) continue;
          for (const token of tokens) if (text.includes(token)) expect.fail(`${r.endpoint.method} ${r.path} as ${orgId} returned ${token} of ${other}`);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('another organization’s ids in any id field or path parameter are refused (403/404), never answered', async () => {
    const [mine, theirs] = orgIds;
    const foreign = await orgHints(engine, theirs!);
    const own = await orgHints(engine, mine!);
    const crossed = { value: (key: string, format: string | undefined) => (key === 'start_date' || key === 'end_date' || key === 'timezone' ? own.value(key, format) : foreign.value(key, format)) };
    const requests = fc.sample(fuzzRequests(endpoints, crossed).filter((r) => r.kind === 'valid' && (/\{/.test(r.endpoint.path) || /_id"|"domain"/.test(r.body ?? ''))), { numRuns: 40, seed: 7 });
    for (const r of requests) {
      const outcome = await send(server.url, keys.get(mine!)!, r);
      expect(outcome.problem).toBeNull();
      expect(r.endpoint.sunset ? [403, 404, 410, 422] : [403, 404, 422], `${r.endpoint.method} ${r.path} ${r.body}`).toContain(outcome.status);
    }
  });
});
