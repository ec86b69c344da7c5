import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, ForbiddenError, NotFoundError, TooLargeError, ValidationError } from '../src/errors.ts';
import { maxKbDocuments, maxKbTextBytes } from '../src/limits.ts';
import { openEngine } from '../src/open-engine.ts';
import type { Engine } from '../src/library/engine.ts';
import type { JsonObject, OrgScope } from '../src/library/org-scope.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { KnowledgeIndex } from '../src/knowledge/knowledge-index.ts';
import { knowledgeBaseEndpoints } from '../src/resources/knowledge-bases/knowledge-bases.ts';
import { weightOf } from '../src/reports/endpoint.ts';

let engine: Engine;
let acme: OrgScope;
let other: OrgScope;
let kb: string;
let otherKb: string;
let categoryId: string;
let clock = new Date('2026-11-20T10:00:00Z');
beforeAll(async () => {
  engine = await openEngine({ data: sampleDir, clock: () => clock });
  const orgs = await engine.listOrganizations();
  acme = engine.org(orgs[0]!.id);
  other = engine.org(orgs[1]!.id);
  categoryId = orgs[0]!.categories[0]!.id;
  kb = ((await acme.resources.knowledgeBases({})).data as { id: string }[])[0]!.id;
  otherKb = ((await other.resources.knowledgeBases({})).data as { id: string }[])[0]!.id;
});
afterAll(() => engine.close());

const at = (id: string) => ({ knowledge_base_id: id });
const create = (name: string, text: string, folder?: string) =>
  acme.resources.createKnowledgeBaseDocument({ params: at(kb), body: { name, text, folder } });
const search = (body: object, scope = acme, id = kb) =>
  scope.resources.searchKnowledgeBase({ params: at(id), body }) as Promise<{
    data: { id: string; content: string; score: number; metadata: JsonObject }[];
  }>;
const refused = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('knowledge bases', () => {
  it('lists the caller’s knowledge bases with the client’s fields and pagination', async () => {
    const page = await acme.resources.knowledgeBases({});
    expect(page.pagination).toEqual({ limit: 100, next_cursor: null });
    expect(page.data).toEqual([
      {
        id: kb,
        name: expect.any(String),
        created_at: expect.stringMatching(/Z$/),
        description: expect.any(String),
        slug: 'product-facts',
      },
    ]);
    expect(await refused(acme.resources.knowledgeBases({ query: { organization_id: other.id } }))).toBeInstanceOf(
      ForbiddenError,
    );
  });

  it('creates, overwrites and deletes documents; folders are created, refused when not empty, deleted recursively', async () => {
    expect(await create('guide.md', 'One.\n\nTwo.', 'crud/a')).toEqual({
      message: 'Document created',
      name: 'guide.md',
      path: 'crud/a/guide.md',
      folder: 'crud/a',
    });
    expect(await refused(create('crud/a/guide.md', 'again'))).toBeInstanceOf(ConflictError);
    clock = new Date('2026-11-21T10:00:00Z');
    expect(
      await acme.resources.updateKnowledgeBaseDocument({
        params: at(kb),
        body: { name: 'guide.md', folder: 'crud/a', text: 'Three.' },
      }),
    ).toMatchObject({ path: 'crud/a/guide.md' });
    expect(
      await refused(
        acme.resources.updateKnowledgeBaseDocument({ params: at(kb), body: { name: 'crud/none.md', text: 'x' } }),
      ),
    ).toBeInstanceOf(NotFoundError);
    expect(await acme.resources.createKnowledgeBaseFolder({ params: at(kb), body: { path: '/crud/empty/' } })).toEqual({
      message: 'Folder created',
      path: 'crud/empty',
    });
    expect(
      await refused(acme.resources.createKnowledgeBaseFolder({ params: at(kb), body: { path: 'crud/empty' } })),
    ).toBeInstanceOf(ConflictError);
    expect(await acme.resources.deleteKnowledgeBaseFolder({ params: at(kb), body: { path: 'crud/empty' } })).toEqual({
      message: 'Folder deleted',
      path: 'crud/empty',
    });
    const conflict = await refused(
      acme.resources.deleteKnowledgeBaseFolder({ params: at(kb), body: { path: 'crud' } }),
    );
    expect(conflict).toBeInstanceOf(ConflictError);
    expect((await search({ query: 'three', top_k: 5, filters: { folders: ['crud'] } })).data.map((r) => r.id)).toEqual([
      'crud/a/guide.md#1',
    ]);
    expect(
      await acme.resources.deleteKnowledgeBaseDocument({ params: at(kb), body: { name: 'crud/a/guide.md' } }),
    ).toEqual({ message: 'Document deleted', name: 'guide.md', path: 'crud/a/guide.md', folder: 'crud/a' });
    expect(
      await refused(acme.resources.deleteKnowledgeBaseDocument({ params: at(kb), body: { name: 'crud/a/guide.md' } })),
    ).toBeInstanceOf(NotFoundError);
    await create('b.md', 'Three again.', 'crud');
    expect(
      await acme.resources.deleteKnowledgeBaseFolder({ params: at(kb), body: { path: 'crud', recursive: true } }),
    ).toEqual({ message: 'Folder deleted with 1 documents', path: 'crud' });
    expect((await search({ query: 'three', top_k: 5, filters: { folders: ['crud'] } })).data).toEqual([]);
  });

  it('answers 422s that name the field', async () => {
    const issue = async (p: Promise<unknown>) => ((await refused(p)) as ValidationError).body().detail[0];
    expect(await issue(create('../x.md', 'x'))).toMatchObject({ type: 'value_error', loc: ['body', 'name'] });
    expect(await issue(search({ query: 'x', top_k: 0 }))).toMatchObject({
      type: 'greater_than_equal',
      loc: ['body', 'top_k'],
    });
    expect(await issue(search({ query: 'x' }))).toMatchObject({ type: 'missing', loc: ['body', 'top_k'] });
    expect(await issue(search({ query: 'x', top_k: 3, filters: { folders: ['a', 'b'] } }))).toMatchObject({
      type: 'too_long',
      loc: ['body', 'filters', 'folders'],
    });
    expect(
      await issue(acme.resources.searchKnowledgeBase({ params: at('nope'), body: { query: 'x', top_k: 1 } })),
    ).toMatchObject({ loc: ['path', 'knowledge_base_id'] });
  });

  it('checks folder and name together as one path: 1,024 characters and 16 segments at most', async () => {
    const issue = async (p: Promise<unknown>) => ((await refused(p)) as ValidationError).body().detail[0];
    const deep = Array.from({ length: 16 }, (_, i) => `s${i}`);
    const long = Array.from({ length: 8 }, (_, i) => `${i}`.padEnd(127, 'x')).join('/');
    expect(long.length).toBe(1023);
    expect(await issue(create(long, 'x', long))).toMatchObject({
      type: 'value_error',
      loc: ['body', 'name'],
      msg: expect.stringContaining('folder/name has at most 1024 characters'),
    });
    expect(await issue(create(deep.slice(8).join('/'), 'x', deep.slice(0, 9).join('/')))).toMatchObject({
      loc: ['body', 'name'],
      msg: expect.stringContaining('at most 16 segments'),
    });
    expect(await create(deep.slice(8).join('/'), 'x', deep.slice(0, 8).join('/'))).toMatchObject({
      path: deep.join('/'),
    });
    const atLimit = ['f', 'g', 'h', 'i'].map((c) => c.repeat(200)).join('/');
    const name = 'n'.padEnd(1024 - atLimit.length - 1, 'n');
    expect(await create(name, 'x', atLimit)).toMatchObject({ path: `${atLimit}/${name}` });
    expect(await issue(create(`${name}n`, 'x', atLimit))).toMatchObject({ loc: ['body', 'name'] });
    await acme.resources.deleteKnowledgeBaseFolder!({ params: at(kb), body: { path: 's0', recursive: true } });
    await acme.resources.deleteKnowledgeBaseFolder!({
      params: at(kb),
      body: { path: atLimit.split('/')[0]!, recursive: true },
    });
  });

  it('stores a path in Unicode NFC, once, and refuses C1 and bidirectional controls naming the field', async () => {
    const issue = async (p: Promise<unknown>) => ((await refused(p)) as ValidationError).body().detail[0];
    const nfd = 'cafe\u0301.md';
    expect(await create('café.md', 'Crème brûlée.', 'unicode')).toMatchObject({ path: 'unicode/café.md' });
    expect(await refused(create(nfd, 'again', 'unicode'))).toBeInstanceOf(ConflictError);
    expect(
      await acme.resources.updateKnowledgeBaseDocument!({
        params: at(kb),
        body: { name: `unicode/${nfd}`, text: 'Crème.' },
      }),
    ).toMatchObject({ path: 'unicode/café.md' });
    for (const c of ['\u0085', '\u009b', '\u202e', '\u200e', '\u200f', '\u202a', '\u2066', '\u2069']) {
      expect(await issue(create(`evil${c}dm.exe`, 'x'))).toMatchObject({
        type: 'value_error',
        loc: ['body', 'name'],
        msg: expect.stringContaining('control'),
      });
      expect(await issue(create('ok.md', 'x', `f${c}`))).toMatchObject({ loc: ['body', 'folder'] });
      expect(
        await issue(acme.resources.createKnowledgeBaseFolder!({ params: at(kb), body: { path: `f${c}` } })),
      ).toMatchObject({ loc: ['body', 'path'] });
    }
    expect(await create('日本語 ß 🚀.md', 'Unicode names are fine.', 'unicode')).toMatchObject({
      path: 'unicode/日本語 ß 🚀.md',
    });
    expect(
      await acme.resources.deleteKnowledgeBaseFolder!({ params: at(kb), body: { path: 'unicode', recursive: true } }),
    ).toEqual({ message: 'Folder deleted with 2 documents', path: 'unicode' });
  });

  it('bounds a knowledge base: 10,000 documents and 32 MiB of text, a 413 one past either', async () => {
    const fill = (select: string) =>
      engine.core.state.transaction((conn) =>
        conn.run(`INSERT INTO state.kb_documents ${select}`, { kb, org: acme.id }),
      );
    const clear = () =>
      engine.core.state.transaction((conn) =>
        conn.run(`DELETE FROM state.kb_documents WHERE knowledge_base_id = $kb AND path LIKE 'bulk/%'`, { kb }),
      );
    const existing = Number(
      (
        await engine.core.state.read((conn) =>
          conn.runAndReadAll(`SELECT count(*) FROM state.kb_documents WHERE knowledge_base_id = $kb`, { kb }),
        )
      ).getRowsJS()[0]![0],
    );
    await fill(
      `SELECT uuid(), $org, $kb, 'bulk/' || i || '.md', 'x', []::VARCHAR[], now(), now() FROM range(${maxKbDocuments - existing - 1}) t(i)`,
    );
    try {
      expect(await create('bulk/last.md', 'the 10,000th')).toMatchObject({ path: 'bulk/last.md' });
      const full = await refused(create('bulk/one-more.md', 'the 10,001st'));
      expect(full).toBeInstanceOf(TooLargeError);
      expect(full).toMatchObject({ status: 413, code: 'knowledge_base_full' });
    } finally {
      await clear();
    }
    const used = Number(
      (
        await engine.core.state.read((conn) =>
          conn.runAndReadAll(`SELECT sum(strlen(text)) FROM state.kb_documents WHERE knowledge_base_id = $kb`, { kb }),
        )
      ).getRowsJS()[0]![0],
    );
    await fill(
      `SELECT uuid(), $org, $kb, 'bulk/big-' || i || '.md', repeat('y', ${maxKbTextBytes - used - 10}), []::VARCHAR[], now(), now() FROM range(1) t(i)`,
    );
    try {
      expect(await create('bulk/ten.md', 'é'.repeat(5))).toMatchObject({ path: 'bulk/ten.md' });
      expect(await refused(create('bulk/eleven.md', 'z'))).toMatchObject({ status: 413, code: 'knowledge_base_full' });
      expect(
        await refused(
          acme.resources.updateKnowledgeBaseDocument!({
            params: at(kb),
            body: { name: 'bulk/ten.md', text: 'é'.repeat(5) + 'z' },
          }),
        ),
      ).toBeInstanceOf(TooLargeError);
      expect(
        await acme.resources.updateKnowledgeBaseDocument!({
          params: at(kb),
          body: { name: 'bulk/ten.md', text: 'shorter' },
        }),
      ).toMatchObject({ path: 'bulk/ten.md' });
    } finally {
      await clear();
    }
  });

  it('counts a search as heavy, stops it when its signal aborts, and holds a bounded amount of indexed text', async () => {
    expect(weightOf(knowledgeBaseEndpoints.find((e) => e.name === 'searchKnowledgeBase')!)).toBe('heavy');
    const gone = new Error('client left');
    const controller = new AbortController();
    controller.abort(gone);
    await expect(
      engine.core.knowledge.search(kb, { query: 'pricing', topK: 3, folder: null, tags: null }, controller.signal),
    ).rejects.toBe(gone);

    const bytesOf = async (id: string) =>
      Number(
        (
          await engine.core.state.read((conn) =>
            conn.runAndReadAll(`SELECT sum(strlen(text)) FROM state.kb_documents WHERE knowledge_base_id = $id`, {
              id,
            }),
          )
        ).getRowsJS()[0]![0],
      );
    const [own, others] = [await bytesOf(kb), await bytesOf(otherKb)];
    const index = new KnowledgeIndex(engine.core.state, Math.max(own, others));
    try {
      const q = { query: 'pricing', topK: 3, folder: null, tags: null };
      const first = await index.search(kb, q);
      expect(index.indexedBytes).toBe(own);
      await index.search(otherKb, q);
      expect(index.loaded).toEqual([kb, otherKb]);
      await index.search(otherKb, q);
      expect(index.loaded).toEqual([otherKb]);
      expect(index.indexedBytes).toBe(others);
      expect(await index.search(kb, q)).toEqual(first);
      await index.search(kb, q);
      expect(index.loaded).toEqual([kb]);
    } finally {
      await index.close();
    }
  });

  it('keeps organizations apart: another organization’s knowledge base is a 403, an unknown one a 404', async () => {
    expect(await refused(search({ query: 'warranty', top_k: 3 }, acme, otherKb))).toBeInstanceOf(ForbiddenError);
    expect(
      await refused(
        acme.resources.createKnowledgeBaseDocument({ params: at(otherKb), body: { name: 'x.md', text: 'x' } }),
      ),
    ).toBeInstanceOf(ForbiddenError);
    expect(
      await refused(search({ query: 'warranty', top_k: 3 }, acme, '00000000-0000-4000-8000-000000000000')),
    ).toBeInstanceOf(NotFoundError);
    await create('secret/acme-only.md', 'zanzibar quokka handbook');
    expect((await search({ query: 'zanzibar quokka', top_k: 5 }, other, otherKb)).data).toEqual([]);
    expect((await search({ query: 'zanzibar quokka', top_k: 5 })).data.map((r) => r.id)).toEqual([
      'secret/acme-only.md#1',
    ]);
  });

  it('ranks a small labelled corpus: the document about the query comes first, with its best section as the snippet', async () => {
    const corpus: [string, string][] = [
      [
        'rank/tents.md',
        '# Tents\n\nOur tents are rated for winds of 80 km/h.\n\nEvery tent ships with a repair kit for torn seams.',
      ],
      [
        'rank/boots.md',
        '# Boots\n\nBoots are waterproof to a depth of 10 cm.\n\nResoling is free for the first two years.',
      ],
      [
        'rank/returns.md',
        '# Returns\n\nUnused gear may be returned within 90 days for a refund.\n\nRefunds go to the original payment method.',
      ],
      [
        'rank/shipping.md',
        '# Shipping\n\nOrders over 50 dollars ship free within the country.\n\nInternational shipping takes 7 to 14 days.',
      ],
      [
        'rank/warranty.md',
        '# Warranty\n\nThe warranty covers manufacturing defects for five years.\n\nWear and tear is not covered by the warranty.',
      ],
      ['rank/noise.md', '# Notes\n\nBoots, tents, returns, shipping and warranty questions go to support.'],
    ];
    for (const [path, text] of corpus) await create(path, text);
    const labelled: [string, string, string][] = [
      [
        'how long is the warranty on defects',
        'rank/warranty.md',
        'The warranty covers manufacturing defects for five years.',
      ],
      ['refund for returned gear', 'rank/returns.md', 'Unused gear may be returned within 90 days for a refund.'],
      ['international shipping time', 'rank/shipping.md', 'International shipping takes 7 to 14 days.'],
      ['are the boots waterproof', 'rank/boots.md', 'Boots are waterproof to a depth of 10 cm.'],
      ['torn seams repair kit', 'rank/tents.md', 'Every tent ships with a repair kit for torn seams.'],
    ];
    for (const [query, path, snippet] of labelled) {
      const { data } = await search({ query, top_k: 3, filters: { folders: ['rank'] } });
      expect({ query, first: data[0]?.metadata.path, content: data[0]?.content }).toEqual({
        query,
        first: path,
        content: snippet,
      });
      expect(data.map((r) => r.score)).toEqual([...data.map((r) => r.score)].sort((a, b) => b - a));
    }
    const full = await search({
      query: 'warranty defects',
      top_k: 1,
      return_full_page: true,
      filters: { folders: ['rank'] },
    });
    expect(full.data[0]).toMatchObject({ id: 'rank/warranty.md', content: corpus[4]![1] });
    const again = await search({
      query: 'warranty defects',
      top_k: 1,
      return_full_page: true,
      filters: { folders: ['rank'] },
    });
    expect(JSON.stringify(again)).toBe(JSON.stringify(full));
    expect(
      (await search({ query: 'warranty', top_k: 10, filters: { tags: ['policy'] } })).data.every((r) =>
        (r.metadata.tags as string[]).includes('policy'),
      ),
    ).toBe(true);
  });

  it('fact-check evidence follows an edit of its document in the next report', async () => {
    type Claims = { data: { evidence: { kb_path: string; kb_snippet: string; source_updated_at: string }[] }[] };
    const window = { start_date: '2026-01-01', end_date: '2026-11-15', include: ['evidence'], limit: 100 } as const;
    const found = [];
    for (const o of await engine.listOrganizations()) {
      for (const c of o.categories) {
        const claims = (await engine
          .org(o.id)
          .reports.factcheckClaims({ ...window, category_id: c.id })) as unknown as Claims;
        if (claims.data.some((x) => x.evidence.length > 0))
          found.push({ scope: engine.org(o.id), body: { ...window, category_id: c.id }, claims });
      }
    }
    const { scope, body, claims: before } = found[0]!;
    const ownKb = ((await scope.resources.knowledgeBases({})).data as { id: string }[])[0]!.id;
    const evidence = before.data.flatMap((c) => c.evidence)[0]!;
    const [path, section] = evidence.kb_path.split('#') as [string, string];
    const hit = await search(
      { query: evidence.kb_snippet, top_k: 1, filters: { folders: [path.split('/')[0]!] } },
      scope,
      ownKb,
    );
    expect(hit.data[0]).toMatchObject({ id: evidence.kb_path, content: evidence.kb_snippet });
    const text = (
      await search(
        { query: evidence.kb_snippet, top_k: 1, return_full_page: true, filters: { folders: [path.split('/')[0]!] } },
        scope,
        ownKb,
      )
    ).data[0]!.content;
    const sections = text.split('\n\n');
    sections[Number(section) - 1] = 'Corrected: every brand documents this claim as false.';
    clock = new Date('2026-11-22T08:00:00Z');
    await scope.resources.updateKnowledgeBaseDocument({
      params: at(ownKb),
      body: { name: path, text: sections.join('\n\n') },
    });
    const after = (await scope.reports.factcheckClaims(body)) as unknown as Claims;
    const edited = after.data.flatMap((c) => c.evidence).filter((e) => e.kb_path === evidence.kb_path);
    expect(edited.length).toBeGreaterThan(0);
    for (const e of edited)
      expect(e).toMatchObject({
        kb_snippet: 'Corrected: every brand documents this claim as false.',
        source_updated_at: '2026-11-22T08:00:00Z',
      });
    await scope.resources.deleteKnowledgeBaseDocument({ params: at(ownKb), body: { name: path } });
    const gone = (await scope.reports.factcheckClaims(body)) as unknown as Claims;
    expect(gone.data.flatMap((c) => c.evidence).some((e) => e.kb_path.startsWith(`${path}#`))).toBe(false);
  });
});
