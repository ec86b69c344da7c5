import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import { type Engine } from '../src/library/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { startServer, type TestServer } from './helpers/server.ts';
import { tempDir } from './helpers/tmp.ts';

/** A small tmpfs holds the state store, so the disk can really fill (the suite runs as root). */
let mount: string;
let engine: Engine;
let server: TestServer;
let key: string;
let category: string;
beforeAll(async () => {
  mount = join(await tempDir(), 'small-disk');
  mkdirSync(mount);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mount]);
  engine = await openEngine({ data: sampleDir, state: join(mount, 'state.duckdb') });
  const [org] = await engine.listOrganizations();
  category = org!.categories[0]!.id;
  server = await startServer(engine);
  key = await server.key(org!.id);
});
afterAll(async () => {
  await server?.close();
  await engine?.close();
  execFileSync('umount', [mount]);
});

const fill = () => {
  try {
    for (let i = 0; i < 10_000; i++) writeFileSync(join(mount, `fill-${i}`), Buffer.alloc(128 * 1024));
  } catch {
    return;
  }
};
const unfill = () => {
  for (let i = 0; i < 10_000; i++) rmSync(join(mount, `fill-${i}`), { force: true });
};

describe('the disk fills during a write', () => {
  it('answers 503 without changing anything, and writes again once there is room; the store reopens whole', async () => {
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };
    const list = (await (
      await fetch(`${server.url}/v1/org/categories/${category}/prompts?limit=1`, { headers })
    ).json()) as { data: { id: string; prompt: string }[] };
    const { id, prompt } = list.data[0]!;
    const patch = (text: string) =>
      fetch(`${server.url}/v1/org/categories/${category}/prompts`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ prompts: [{ id, prompt: text }] }),
      });
    fill();
    const refused = await patch(`${prompt} ${'x'.repeat(3500)}`);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({
      code: 'unavailable',
      detail: expect.stringContaining('nothing was changed'),
    });
    const after = (await (
      await fetch(`${server.url}/v1/org/categories/${category}/prompts?limit=1`, { headers })
    ).json()) as typeof list;
    expect(after.data[0]!.prompt).toBe(prompt);
    unfill();
    expect((await patch(`${prompt} (edited)`)).status).toBe(200);
    await server.close();
    await engine.close();
    engine = await openEngine({ data: sampleDir, state: join(mount, 'state.duckdb') });
    server = await startServer(engine);
    const reopened = (await engine
      .org((await engine.listOrganizations())[0]!.id)
      .resources.prompts({ params: { category_id: category }, query: { limit: '1' } })) as typeof list;
    expect(reopened.data[0]!.prompt).toBe(`${prompt} (edited)`);
  });
});
