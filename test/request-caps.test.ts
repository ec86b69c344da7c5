import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import type { Engine } from '../src/library/engine.ts';
import { maxJsonDepth, maxNameLength, maxPromptLength, maxPromptsPerRequest, maxRefsPerPrompt } from '../src/limits.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { NameIndex } from '../src/resources/prompts/name-index.ts';
import type { Named } from '../src/resources/prompts/prompt-set.ts';
import { post, startServer, type TestServer } from './helpers/server.ts';

let engine: Engine;
let server: TestServer;
let key: string;
let prompts: string;
let promptId: string;
beforeAll(async () => {
  engine = await openEngine({ data: sampleDir });
  server = await startServer(engine, { rateLimit: false });
  const [org] = await engine.listOrganizations();
  key = await server.key(org!.id);
  prompts = `${server.url}/v1/org/categories/${org!.categories[0]!.id}/prompts`;
  const listed = (await (await fetch(`${prompts}?limit=1`, { headers: { 'x-api-key': key } })).json()) as {
    data: { id: string }[];
  };
  promptId = listed.data[0]!.id;
});
afterAll(async () => {
  await server.close();
  await engine.close();
});

const patch = (body: unknown) =>
  fetch(prompts, {
    method: 'PATCH',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

async function refusal(r: Response): Promise<{ type: string; loc: (string | number)[]; msg: string }> {
  expect(r.status).toBe(422);
  const body = (await r.json()) as { detail: { type: string; loc: (string | number)[]; msg: string }[] };
  expect(body.detail).toHaveLength(1);
  return body.detail[0]!;
}

describe('what one request may carry', () => {
  it('refuses more prompts than one request may carry, naming the list', async () => {
    const entries = Array.from({ length: maxPromptsPerRequest + 1 }, () => ({ id: promptId, prompt: 'x' }));
    const issue = await refusal(await patch({ prompts: entries }));
    expect(issue).toMatchObject({
      type: 'too_long',
      loc: ['body', 'prompts'],
      msg: `List should have at most ${maxPromptsPerRequest} items after validation, not ${maxPromptsPerRequest + 1}`,
    });
  });

  it('refuses more tags (or personas, regions, platforms) on one prompt than the bound, naming the field', async () => {
    const tags = Array.from({ length: maxRefsPerPrompt + 1 }, (_, i) => `cap tag ${i}`);
    expect(await refusal(await patch({ prompts: [{ id: promptId, tags }] }))).toMatchObject({
      type: 'too_long',
      loc: ['body', 'prompts', 0, 'tags'],
    });
    const personas = Array.from({ length: maxRefsPerPrompt + 1 }, (_, i) => `persona ${i}`);
    expect(await refusal(await patch({ prompts: [{ id: promptId, personas }] }))).toMatchObject({
      type: 'too_long',
      loc: ['body', 'prompts', 0, 'personas'],
    });
  });

  it('refuses a name longer than the bound, as a plain string or in {id, name}', async () => {
    const long = 'n'.repeat(maxNameLength + 1);
    expect(await refusal(await patch({ prompts: [{ id: promptId, topic: long }] }))).toEqual({
      type: 'string_too_long',
      loc: ['body', 'prompts', 0, 'topic'],
      msg: `String should have at most ${maxNameLength} characters`,
      input: long,
      ctx: { max_length: maxNameLength },
    });
    expect(await refusal(await patch({ prompts: [{ id: promptId, tags: ['fine', { name: long }] }] }))).toMatchObject({
      type: 'string_too_long',
      loc: ['body', 'prompts', 0, 'tags', 1, 'name'],
    });
    const ok = await patch({ prompts: [{ id: promptId, tags: ['n'.repeat(maxNameLength)] }], dry_run: true });
    expect(ok.status).toBe(200);
  });

  it('refuses a prompt text longer than the bound', async () => {
    expect(
      await refusal(await patch({ prompts: [{ id: promptId, prompt: 'p'.repeat(maxPromptLength + 1) }] })),
    ).toMatchObject({ type: 'string_too_long', loc: ['body', 'prompts', 0, 'prompt'] });
  });

  it('refuses names with NUL or other control characters, and prompts with control characters other than tabs and line breaks', async () => {
    for (const name of ['nul\u0000byte', 'bell\u0007', 'line\nbreak', 'del\u007f', 'c1\u0085']) {
      const issue = await refusal(await patch({ prompts: [{ id: promptId, tags: [name] }] }));
      expect(issue).toMatchObject({ type: 'value_error', loc: ['body', 'prompts', 0, 'tags', 0] });
      expect(issue.msg).toContain('control characters');
    }
    expect(await refusal(await patch({ prompts: [{ id: promptId, topic: { name: 'a\u0000' } }] }))).toMatchObject({
      loc: ['body', 'prompts', 0, 'topic', 'name'],
    });
    expect(await refusal(await patch({ prompts: [{ id: promptId, prompt: 'a\u0000b' }] }))).toMatchObject({
      type: 'value_error',
      loc: ['body', 'prompts', 0, 'prompt'],
    });
    expect((await patch({ prompts: [{ id: promptId, prompt: 'two\nlines\tand a tab' }], dry_run: true })).status).toBe(
      200,
    );
  });

  it('refuses the same caps when prompts are created', async () => {
    const r = await post(
      prompts,
      {
        prompts: [
          { prompt: 'q', language: 'en-US', topic: 'ok', platforms: ['x'], regions: ['y'], tags: ['bad\u0000'] },
        ],
      },
      { 'x-api-key': key },
    );
    expect(await refusal(r)).toMatchObject({ loc: ['body', 'prompts', 0, 'tags', 0] });
  });
});

describe('deeply nested JSON bodies', () => {
  it('answer FastAPI’s HTTPValidationError, without internal text, however they nest', async () => {
    const bodies = [
      '{"a":'.repeat(20_000),
      `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`,
      `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
      `{"prompts":${'['.repeat(5_000)}${']'.repeat(5_000)}}`,
    ];
    for (const body of bodies) {
      const r = await patch(body);
      const text = await r.text();
      expect(r.status).toBe(422);
      expect(text).not.toMatch(/stack|statusCode|Unprocessable/i);
      expect(JSON.parse(text)).toEqual({
        detail: [
          {
            type: 'json_invalid',
            loc: ['body', expect.any(Number)],
            msg: 'JSON decode error',
            input: {},
            ctx: { error: `Nesting deeper than ${maxJsonDepth} levels` },
          },
        ],
      });
    }
  });

  it('still parse at the deepest valid nesting', async () => {
    let filter: unknown = { field: 'model', op: 'is', value: 'x' };
    for (let i = 0; i < 8; i++) filter = { and: [filter] };
    const r = await post(
      `${server.url}/v2/reports/visibility`,
      {
        category_id: '00000000-0000-0000-0000-000000000000',
        start_date: '2026-01-01',
        end_date: '2026-01-02',
        filters: filter,
      },
      { 'x-api-key': key },
    );
    expect(r.status).not.toBe(500);
    expect(JSON.stringify(await r.json())).not.toContain('json_invalid');
  });
});

describe('the name index', () => {
  /** What the resolver did before the index: scan in table order, an exact name first, else the first match ignoring case. */
  const scan = (items: readonly Named[], name: string) =>
    items.find((t) => t.name === name) ?? items.find((t) => t.name.toLowerCase() === name.toLowerCase());

  it('finds what a scan in table order finds, through adds and renames', () => {
    const name = fc.constantFrom('Alpha', 'alpha', 'ALPHA', 'beta', 'Beta', 'gamma', 'Straße', 'STRASSE', 'İ', 'i');
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), name }),
      fc.record({ kind: fc.constant('rename' as const), at: fc.nat(), name }),
    );
    fc.assert(
      fc.property(fc.array(name, { maxLength: 6 }), fc.array(op, { maxLength: 12 }), (initial, ops) => {
        const table: Named[] = initial.map((n, i) => ({ id: `id${i}`, name: n }));
        const index = NameIndex.of(table);
        for (const o of ops) {
          if (o.kind === 'add') {
            const item = { id: `id${table.length}`, name: o.name };
            table.push(item);
            index.add(item);
          } else if (table.length > 0) {
            const at = o.at % table.length;
            const renamed = { ...table[at]!, name: o.name };
            index.replace(table[at]!, renamed);
            table[at] = renamed;
          }
          for (const probe of ['Alpha', 'alpha', 'beta', 'gamma', 'straße', 'strasse', 'i', 'İ', 'delta'])
            expect(index.find(probe)).toEqual(scan(table, probe));
        }
      }),
    );
  });
});
