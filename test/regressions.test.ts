import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import { type Engine } from '../src/library/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { startServer, type TestServer } from './helpers/server.ts';

/** Defects the long fuzzing campaigns found, kept fixed. */
let engine: Engine;
let server: TestServer;
let key: string;
let category: string;
beforeAll(async () => {
  engine = await openEngine({ data: sampleDir });
  const [org] = await engine.listOrganizations();
  category = org!.categories[0]!.id;
  server = await startServer(engine, { rateLimit: false });
  key = await server.key(org!.id);
});
afterAll(async () => {
  await server.close();
  await engine.close();
});

describe('regressions found by fuzzing', () => {
  it('query parameters named like Object.prototype members are plain parameters (was a 500)', async () => {
    for (const name of ['valueOf', 'toString', 'constructor', 'hasOwnProperty', '__proto__', 'isPrototypeOf']) {
      for (const path of ['/v1/org/assets', `/v1/org/categories/${category}/prompts`, '/v1/agents']) {
        const r = await fetch(`${server.url}${path}?${name}=1&${name}=2`, { headers: { 'x-api-key': key } });
        expect(r.status, `${path}?${name}`).toBe(200);
        await r.arrayBuffer();
      }
    }
  });
});

describe('regressions found by the benchmark', () => {
  it('a process exits after closing the engine under running and queued queries (aea serve once hung on SIGTERM after a load run)', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./helpers/close-child.ts', import.meta.url)), sampleDir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const hung = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(null);
      }, 45_000);
      child.on('exit', (c) => {
        clearTimeout(hung);
        resolve(c);
      });
    });
    expect(out).toMatch(/^closed \d+ \d+\n$/);
    expect(code, 'the process did not exit after engine.close()').toBe(0);
  }, 60_000);
});
