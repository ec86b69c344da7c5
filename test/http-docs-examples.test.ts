import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { sampleIds } from '../src/http/openapi-examples.ts';
import { openEngine } from '../src/open-engine.ts';
import { endpoints } from '../src/registry.ts';
import { startServer, type TestServer } from './helpers/server.ts';
import { tempDir } from './helpers/tmp.ts';

type Parameter = { name: string; in: string; required?: boolean; example?: unknown };
type Operation = { parameters: Parameter[]; requestBody?: { content: { 'application/json': { example?: unknown } } } };

let engine: Engine;
let server: TestServer;
let key: string;
let doc: { paths: Record<string, Record<string, Operation>> };
beforeAll(async () => {
  // Its own state store: the examples create, edit and delete (prompts as dry runs, documents, folders, a run).
  engine = await openEngine({ data: sampleDir, state: join(await tempDir('aea-docs-examples-'), 'state.duckdb') });
  server = await startServer(engine);
  key = await server.key(sampleIds.organization);
  doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as typeof doc;
});
afterAll(async () => {
  await server.close();
  await engine.close();
});

/** 200, but: a run starts (202); a run's id is known only once started (404); the raw logs were retired (410). */
function expectedStatus(method: string, path: string): number {
  if (method === 'POST' && path.endsWith('/runs')) return 202;
  if (method === 'GET' && path.endsWith('/runs/{run_id}')) return 404;
  return path.startsWith('/v1/logs/raw') ? 410 : 200;
}

describe('the /docs examples ("Try it out")', () => {
  it('name the sample’s organization, category and objects', async () => {
    const [org] = await engine.listOrganizations();
    expect(org).toMatchObject({
      id: sampleIds.organization,
      categories: expect.arrayContaining([expect.objectContaining({ id: sampleIds.category })]),
    });
  });

  it('run, as pre-filled, against the sample: every operation of the registry, with no 422', async () => {
    const statuses: Record<string, number> = {};
    const wanted: Record<string, number> = {};
    for (const e of endpoints) {
      const operation = doc.paths[e.path]![e.method.toLowerCase()]!;
      const required = operation.parameters.filter((p) => p.required && p.in !== 'header');
      expect(
        required.filter((p) => p.example === undefined).map((p) => p.name),
        `${e.method} ${e.path}`,
      ).toEqual([]);
      const body = operation.requestBody?.content['application/json'].example;
      expect(e.schemas.body === undefined || body !== undefined, `${e.method} ${e.path}: a body example`).toBe(true);
      let path = e.path;
      for (const p of operation.parameters.filter((p) => p.in === 'path'))
        path = path.replace(`{${p.name}}`, encodeURIComponent(String(p.example)));
      const query = new URLSearchParams(
        operation.parameters
          .filter((p) => p.in === 'query' && p.example !== undefined)
          .map((p): [string, string] => [p.name, String(p.example)]),
      );
      const response = await fetch(`${server.url}${path}${query.size ? `?${query}` : ''}`, {
        method: e.method,
        headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      statuses[`${e.method} ${e.path}`] = response.status;
      wanted[`${e.method} ${e.path}`] = expectedStatus(e.method, e.path);
      if (response.status !== wanted[`${e.method} ${e.path}`])
        statuses[`${e.method} ${e.path} body`] = text.slice(0, 300) as never;
    }
    expect(statuses).toEqual(wanted);
  }, 240_000);

  it('/docs/ redirects to /docs', async () => {
    const response = await fetch(`${server.url}/docs/`, { redirect: 'manual' });
    expect(response.status).toBe(301);
    expect(new URL(response.headers.get('location')!, `${server.url}/docs/`).href).toBe(`${server.url}/docs`);
    expect((await fetch(`${server.url}/docs/`)).url).toBe(`${server.url}/docs`);
  });
});
