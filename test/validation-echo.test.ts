import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import type { Engine } from '../src/library/engine.ts';
import { maxEchoedInputChars } from '../src/limits.ts';
import { echoedInput, ValidationError } from '../src/errors.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { maxTextLength } from '../src/resources/knowledge-bases/documents.ts';
import { post, startServer, type TestServer } from './helpers/server.ts';

let engine: Engine;
let server: TestServer;
let key: string;
let kb: string;

beforeAll(async () => {
  engine = await openEngine({ data: sampleDir, threads: 1, connections: 1 });
  const [org] = await engine.listOrganizations();
  kb = ((await engine.org(org!.id).resources.knowledgeBases!({})).data as { id: string }[])[0]!.id;
  server = await startServer(engine, { rateLimit: false });
  key = await server.key(org!.id);
});
afterAll(async () => {
  await server?.close();
  await engine?.close();
});

describe('what a 422 echoes of its input', () => {
  it('echoes an input of at most maxEchoedInputChars as it is, and cuts one past it with …', () => {
    const at = 'x'.repeat(maxEchoedInputChars);
    expect(echoedInput(at)).toBe(at);
    expect(echoedInput(at + 'y')).toBe(`${at}…`);
    expect(echoedInput({ a: [1, 2] })).toEqual({ a: [1, 2] });
    const list = Array.from({ length: 1000 }, (_, i) => i);
    const echoed = echoedInput(list) as string;
    expect(echoed).toBe(`${JSON.stringify(list).slice(0, maxEchoedInputChars)}…`);
    expect(echoedInput(42)).toBe(42);
    expect(echoedInput(null)).toBeNull();
  });

  it('never cuts a character in half', () => {
    const emoji = `${'x'.repeat(maxEchoedInputChars - 1)}😀tail`;
    const echoed = echoedInput(emoji) as string;
    expect(echoed).toBe(`${'x'.repeat(maxEchoedInputChars - 1)}…`);
    expect(new ValidationError([{ type: 'x', loc: ['body'], msg: 'm', input: emoji }]).detail[0]!.input).toBe(echoed);
  });

  it('HTTP: an over-long knowledge-base text is a 422 naming the field, without echoing the 500 KB text', async () => {
    const text = 'A'.repeat(maxTextLength + 1);
    const r = await post(
      `${server.url}/v1/knowledge-bases/${kb}/documents`,
      { name: 'too-long.md', text },
      { 'x-api-key': key },
    );
    expect(r.status).toBe(422);
    const raw = await r.text();
    expect(raw.length).toBeLessThan(4 * maxEchoedInputChars);
    const body = JSON.parse(raw) as { detail: { loc: unknown[]; type: string; input: string }[] };
    expect(body.detail[0]).toMatchObject({
      loc: ['body', 'text'],
      type: 'string_too_long',
      input: `${'A'.repeat(maxEchoedInputChars)}…`,
    });
  });
});
