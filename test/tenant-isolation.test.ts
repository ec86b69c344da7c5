import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import { type Engine } from '../src/library/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { tableNames, tables } from '../src/model/tables.ts';
import { endpoints } from '../src/registry.ts';
import { fuzzRequests, send, type FuzzRequest } from './fuzz/fuzz-core.ts';
import { everyReportCases, sampleScopes } from './helpers/every-report.ts';
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
    .filter(
      (t) =>
        tables[t].tenant === 'organization' &&
        ![
          'executions',
          'mentions',
          'citations',
          'sentiments',
          'fanouts',
          'shopping_results',
          'claim_occurrences',
          'bot_events',
          'referral_visits',
          'page_analyses',
        ].includes(t),
    )
    .flatMap((t) => {
      const cols = Object.keys(tables[t].columns);
      const org = t === 'organizations' ? 'id' : 'organization_id';
      return ['id', 'name', 'prompt', 'claim', 'title']
        .filter((c) => cols.includes(c))
        .map((c) => `SELECT ${org} AS org, CAST(${c} AS VARCHAR) AS token FROM ${t}`);
    });
  const rows = await engine.core.pool.use(async (c) =>
    (
      await c.runAndReadAll(
        `SELECT token, min(org) FROM (${selects.join(' UNION ALL ')}) WHERE length(token) >= 6 GROUP BY token HAVING count(DISTINCT org) = 1`,
      )
    ).getRowsJS(),
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
        const [request] = fc.sample(
          fuzzRequests(endpoints, hintsByOrg.get(orgId)!).filter((r) => r.kind === 'valid'),
          { numRuns: 1, seed },
        );
        const r = request!;
        const response = await fetch(`${server.url}${r.path}${r.query}`, {
          method: r.endpoint.method,
          headers: { 'x-api-key': keys.get(orgId)!, 'content-type': 'application/json' },
          ...(r.body !== undefined && r.endpoint.method !== 'GET' ? { body: r.body } : {}),
        });
        const text = await response.text();
        for (const [other, tokens] of exclusive) {
          if (other === orgId) continue;
          for (const token of tokens)
            if (text.includes(token))
              expect.fail(`${r.endpoint.method} ${r.path} as ${orgId} returned ${token} of ${other}`);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('another organization’s ids in any id field or path parameter are refused (403/404) on every endpoint, never answered', async () => {
    const [mine, theirs] = orgIds;
    const foreign = await orgHints(engine, theirs!);
    const own = await orgHints(engine, mine!);
    const crossed = {
      value: (key: string, format: string | undefined) =>
        key === 'start_date' || key === 'end_date' || key === 'timezone'
          ? own.value(key, format)
          : foreign.value(key, format),
    };
    const carriesIds = (r: { endpoint: { path: string }; body?: string; query: string }) =>
      /\{/.test(r.endpoint.path) || /_id"|"domain"/.test(r.body ?? '') || /_id=|domain=/.test(r.query);
    const withoutIds: string[] = [];
    const knownValid = new Map<string, { r: FuzzRequest; key: string }[]>();
    for (const c of everyReportCases(await sampleScopes(engine))) {
      const other = orgIds.find((id) => id !== c.scope.org)!;
      const { limit: _limit, ...streamBody } = c.body;
      for (const [path, body] of [
        [c.path, c.body],
        [`${c.path}/stream`, streamBody],
      ] as const) {
        const endpoint = endpoints.find((e) => e.path === path && e.method === 'POST');
        if (!endpoint) continue;
        const list = knownValid.get(`POST ${path}`) ?? [];
        list.push({
          r: { kind: 'valid', endpoint, path, body: JSON.stringify(body), query: '' },
          key: keys.get(other)!,
        });
        knownValid.set(`POST ${path}`, list);
      }
    }
    for (const endpoint of endpoints) {
      // Every endpoint, each with requests of its own: a sample over all of them once left 41 of 69 out.
      // A known-valid request of one organization sent with another's key comes first (sampled bodies often fail
      // validation before the check); then sampled ones, filtered after sampling: an endpoint that takes no id
      // would make a filtered arbitrary search forever.
      const sampled = fc
        .sample(fuzzRequests([endpoint], crossed), { numRuns: 60, seed: 7 })
        .filter((r) => r.kind === 'valid' && carriesIds(r))
        .slice(0, 12);
      const requests = [
        ...(knownValid.get(`${endpoint.method} ${endpoint.path}`) ?? []),
        ...sampled.map((r) => ({ r, key: keys.get(mine!)! })),
      ];
      if (requests.length === 0) {
        withoutIds.push(`${endpoint.method} ${endpoint.path}`);
        continue;
      }
      const statuses: number[] = [];
      for (const { r, key } of requests) {
        const outcome = await send(server.url, key, r);
        expect(outcome.problem).toBeNull();
        expect(
          endpoint.sunset ? [403, 404, 410, 422] : [403, 404, 422],
          `${r.endpoint.method} ${r.path}${r.query} ${r.body}`,
        ).toContain(outcome.status);
        statuses.push(outcome.status);
        // Sampled bodies may fail validation first (a stray cursor, say): send more until one reaches the check.
        if (outcome.status !== 422) break;
      }
      // At least one crossed request reached the authorization check rather than failing validation first.
      expect(
        statuses.some((s) => s === 403 || s === 404 || s === 410),
        `${endpoint.method} ${endpoint.path}: ${statuses.join(', ')}`,
      ).toBe(true);
    }
    // Listings of the caller's own organization: no id of another one to send (a new endpoint must be added here on purpose).
    expect(withoutIds).toEqual([
      'GET /v1/org',
      'GET /v1/org/categories',
      'GET /v1/org/domains',
      'GET /v1/org/personas',
      'GET /v1/org/assets',
      'GET /v1/org/models',
      'GET /v1/org/regions',
      'GET /v1/org/citation-tags',
      'GET /v1/org/citation-categories',
      'GET /v1/agents',
    ]);
  }, 600_000);
});
