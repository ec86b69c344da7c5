import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import { type Engine } from '../src/library/engine.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../src/errors.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { sql } from '../src/query/sql.ts';
import type { EndpointInput } from '../src/reports/endpoint.ts';
import { query, resetCategory, sampleIds } from './helpers/sample-org.ts';

type Json = Record<string, any>;

let engine: Engine;
let ids: Awaited<ReturnType<typeof sampleIds>>;
beforeAll(async () => {
  engine = await openEngine({ data: sampleDir, threads: 1, connections: 2 });
  ids = await sampleIds(engine);
});
afterAll(() => engine.close());

const org = () => engine.org(ids.org);
const call = (name: string, input: EndpointInput = {}) => org().resource(name)(input) as Promise<any>;
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );
async function issue(p: Promise<unknown>) {
  const e = await failure(p);
  expect(e).toBeInstanceOf(ValidationError);
  return (e as ValidationError).detail;
}
const NR = { id: expect.any(String), name: expect.any(String) };

describe('organization listings', () => {
  it('show the caller’s own rows in the client’s shapes', async () => {
    const count = async (table: string) =>
      Number(
        (
          await query(
            engine,
            sql`SELECT count(*)::INTEGER AS n FROM ${sql([table] as never)} WHERE organization_id = ${ids.org}`,
          )
        )[0]!.n,
      );
    const owner = { id: ids.org, name: expect.any(String) };
    expect(await call('organizations')).toEqual([owner]);
    const categories = await call('categories');
    expect(categories).toHaveLength(await count('categories'));
    expect(categories[0]).toEqual({ ...NR, organization: owner });
    const domains = await call('domains');
    expect(domains).toHaveLength(await count('domains'));
    expect(domains[0]).toEqual({
      ...NR,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      organization: owner,
    });
    const personas = (await call('personas')).data;
    expect(personas).toHaveLength(await count('personas'));
    expect(personas[0]).toEqual({ ...NR, category: NR, organization: owner, persona: expect.any(Object) });
    const assets = (await call('assets')).data;
    expect(assets).toHaveLength(await count('assets'));
    expect(Object.keys(assets[0]).sort()).toEqual([
      'alternate_domains',
      'category',
      'created_at',
      'id',
      'is_owned',
      'logo_url',
      'name',
      'organization',
      'website',
    ]);
    expect((await call('models')).length).toBe(8);
    expect((await call('regions')).length).toBe(6);
    const tags = (await call('citationTags')).data;
    expect(tags).toHaveLength(await count('citation_tags'));
    expect(tags[0]).toEqual({ ...NR, root_domains: expect.any(Array), organization: owner });
    const kinds = (await call('citationCategories')).data.map((c: Json) => c.kind);
    expect(kinds).toHaveLength(await count('citation_categories'));
    expect(kinds.indexOf('custom')).toBeGreaterThan(kinds.lastIndexOf('standard'));
  });

  it('take organization_ids comma-joined or repeated: the caller’s own, 403 another’s, 404 none’s, 422 a bad id', async () => {
    const all = await call('categories');
    expect(await call('categories', { query: { organization_ids: `${ids.org},${ids.org}` } })).toEqual(all);
    expect(await call('categories', { query: { organization_ids: [ids.org] } })).toEqual(all);
    expect(await call('categories', { query: { 'organization_ids[]': ids.org, organization_ids: '' } })).toEqual(all);
    expect(await failure(call('assets', { query: { organization_ids: [ids.org, ids.otherOrg] } }))).toEqual(
      new ForbiddenError(`this API key has no access to organization ${ids.otherOrg}`),
    );
    expect(
      await failure(call('domains', { query: { organization_ids: '0f0f0f0f-0000-4000-8000-000000000000' } })),
    ).toEqual(new NotFoundError('organization 0f0f0f0f-0000-4000-8000-000000000000 not found'));
    expect((await issue(call('regions', { query: { organization_ids: `${ids.org},nope` } })))[0]).toMatchObject({
      loc: ['query', 'organization_ids', 1],
      type: 'uuid_parsing',
    });
  });
});

describe('category listings', () => {
  it('E11: personas with their profile exactly as the seed shows it', async () => {
    const { data } = await call('categoryPersonas', { params: { category_id: ids.category } });
    const rows = await query(engine, sql`SELECT * FROM personas WHERE category_id = ${ids.category} ORDER BY name, id`);
    expect(data).toEqual(
      rows.map((r) => ({
        id: r.id,
        name: r.name,
        persona: {
          behavior: { painPoints: r.pain_points, motivations: r.motivations },
          employment: {
            industry: r.industry,
            jobTitle: r.job_title,
            companySize: r.company_size,
            roleSeniority: r.role_seniority,
          },
          demographics: { ageRange: r.age_range },
        },
      })),
    );
    expect(data.some((p: Json) => p.persona.behavior.painPoints === null)).toBe(true);
  });

  it('assets, topics and tags of the category', async () => {
    const params = { category_id: ids.category };
    expect((await call('categoryAssets', { params })).length).toBe(20);
    expect((await call('categoryTopics', { params }))[0]).toEqual({ ...NR, status: 'active' });
    expect((await call('categoryTags', { params }))[0]).toEqual(NR);
  });

  it('refuse another organization’s category (403) and a category of none (404) before reading anything', async () => {
    const names = [
      'categoryPersonas',
      'categoryAssets',
      'categoryTopics',
      'categoryTags',
      'prompts',
      'createPrompts',
      'updatePrompts',
      'updatePromptStatus',
    ];
    for (const name of names) {
      expect(
        await failure(call(name, { params: { category_id: ids.foreignCategory }, body: {} })),
        name,
      ).toBeInstanceOf(ForbiddenError);
      expect(
        await failure(call(name, { params: { category_id: '0f0f0f0f-0000-4000-8000-000000000000' }, body: {} })),
        name,
      ).toBeInstanceOf(NotFoundError);
      expect((await issue(call(name, { params: { category_id: 'tents' }, body: {} })))[0]).toMatchObject({
        loc: ['path', 'category_id'],
        type: 'uuid_parsing',
      });
    }
  });
});

describe('GET …/prompts', () => {
  const params = () => ({ category_id: ids.category });
  async function expected(test: (p: Json) => boolean, dir: 'asc' | 'desc' = 'asc') {
    const rows = await query(
      engine,
      sql`SELECT id, created_at, status, topic_id, tag_ids, region_ids, platform_ids, persona_ids, analysis_types FROM prompts WHERE category_id = ${ids.category}`,
    );
    const sorted = rows
      .filter(test)
      .sort(
        (a, b) =>
          (a.created_at as Date).getTime() - (b.created_at as Date).getTime() ||
          String(a.id).localeCompare(String(b.id)),
      );
    return (dir === 'asc' ? sorted : sorted.reverse()).map((r) => r.id);
  }
  async function walk(q: Record<string, string | string[]>, limit: number) {
    const out: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await call('prompts', {
        params: params(),
        query: { ...q, limit: String(limit), ...(cursor ? { cursor } : {}) },
      });
      expect(page.info.limit).toBe(limit);
      out.push(...page.data.map((p: Json) => p.id));
      cursor = page.info.next_cursor ?? undefined;
    } while (cursor);
    return out;
  }

  it('lists active prompts oldest first by default, page by page, in the client’s shape', async () => {
    await resetCategory(engine, ids.category);
    const all = await expected((p) => p.status === 'active');
    const page = await call('prompts', { params: params() });
    expect(page.data.map((p: Json) => p.id)).toEqual(all);
    expect(page.info).toEqual({ limit: 100, next_cursor: null, total_rows: all.length });
    expect(page.data[0]).toEqual({
      id: expect.any(String),
      prompt: expect.any(String),
      status: 'active',
      language: 'en-US',
      topic: NR,
      tags: expect.any(Array),
      regions: expect.arrayContaining([NR]),
      platforms: expect.arrayContaining([NR]),
      personas: expect.any(Array),
      analysis_types: expect.arrayContaining(['visibility']),
      prompt_type: 'visibility',
      asset: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await walk({}, 3)).toEqual(all);
    expect(await walk({ order_dir: 'desc', status: 'active,disabled' }, 2)).toEqual(await expected(() => true, 'desc'));
  });

  it('filters: each list matches any of its values, lists combine with and; comma-joined equals repeated', async () => {
    const rows = await query(
      engine,
      sql`SELECT topic_id, tag_ids, region_ids FROM prompts WHERE category_id = ${ids.category}`,
    );
    const tagA = String((rows.find((r) => (r.tag_ids as string[]).length > 0)!.tag_ids as string[])[0]);
    const tagB = String(rows.flatMap((r) => r.tag_ids as string[]).find((t) => t !== tagA) ?? tagA);
    const region = String((rows[0]!.region_ids as string[])[0]);
    const has = (col: string, vs: string[]) => (p: Json) => (p[col] as string[]).some((x) => vs.includes(x));
    const want = await expected(
      (p) =>
        ['active', 'disabled'].includes(p.status) &&
        has('tag_ids', [tagA, tagB])(p) &&
        has('region_ids', [region])(p) &&
        (p.analysis_types as string[]).includes('visibility'),
    );
    const comma = await walk(
      { status: 'active,disabled', tag_id: `${tagA},${tagB}`, region_id: region, analysis_type: 'visibility' },
      2,
    );
    const repeated = await walk(
      { 'status[]': ['disabled', 'active'], tag_id: [tagA, tagB], region_id: [region], analysis_type: ['visibility'] },
      2,
    );
    expect(comma).toEqual(want);
    expect(repeated).toEqual(want);
    expect(await walk({ topic_id: String(rows[0]!.topic_id), status: 'active,disabled' }, 50)).toEqual(
      await expected((p) => p.topic_id === rows[0]!.topic_id),
    );
  });

  it('names the bad query parameter in a 422; a cursor only works with its own query', async () => {
    expect((await issue(call('prompts', { params: params(), query: { limit: '0' } })))[0]).toMatchObject({
      loc: ['query', 'limit'],
      type: 'greater_than_equal',
    });
    expect((await issue(call('prompts', { params: params(), query: { status: 'active,gone' } })))[0]).toMatchObject({
      loc: ['query', 'status', 1],
      type: 'literal_error',
    });
    expect((await issue(call('prompts', { params: params(), query: { order_dir: 'up' } })))[0]).toMatchObject({
      loc: ['query', 'order_dir'],
      type: 'literal_error',
    });
    expect((await issue(call('prompts', { params: params(), query: { tag_id: 'x' } })))[0]).toMatchObject({
      loc: ['query', 'tag_id', 0],
      type: 'uuid_parsing',
    });
    const first = await call('prompts', { params: params(), query: { limit: '2' } });
    const cursor = first.info.next_cursor as string;
    expect(
      (await issue(call('prompts', { params: params(), query: { limit: '2', order_dir: 'desc', cursor } })))[0],
    ).toMatchObject({ loc: ['query', 'cursor'], type: 'value_error' });
    expect((await issue(call('prompts', { params: params(), query: { cursor: `${cursor}x` } })))[0]).toMatchObject({
      loc: ['query', 'cursor'],
    });
  });
});

describe('POST …/prompts', () => {
  const entry = {
    prompt: 'Which tent survives a storm?',
    language: 'en-US',
    topic: 'Storm tents',
    platforms: ['ChatGPT', { name: 'perplexity' }],
    regions: ['United States'],
    tags: ['storm'],
  };

  it('creates prompts (unknown topic and tag names too); a dry run previews without writing', async () => {
    await resetCategory(engine, ids.category);
    const params = { category_id: ids.category };
    const dry = await call('createPrompts', { params, body: { prompts: [entry], dry_run: true } });
    expect(dry).toMatchObject({ dry_run: true, created: 1, topics_created: 1, tags_created: 1 });
    expect((await call('prompts', { params })).data.map((p: Json) => p.prompt)).not.toContain(entry.prompt);
    const made = await call('createPrompts', {
      params,
      body: { prompts: [entry, { ...entry, prompt: 'Second', topic: { name: 'STORM TENTS' } }] },
    });
    expect(made).toMatchObject({ dry_run: false, created: 2, topics_created: 1, tags_created: 1 });
    const [a, b] = made.prompts as Json[];
    expect(a).toEqual({
      id: expect.any(String),
      language: 'en-US',
      prompt: entry.prompt,
      topic: { id: expect.any(String), name: 'Storm tents' },
      analysis_types: ['visibility'],
      asset: null,
      personas: [],
      platforms: [
        { id: expect.any(String), name: 'ChatGPT' },
        { id: expect.any(String), name: 'Perplexity' },
      ],
      regions: [{ id: expect.any(String), name: 'United States' }],
      tags: [{ id: expect.any(String), name: 'storm' }],
    });
    expect(b!.topic).toEqual(a!.topic);
    const listed = (await call('prompts', { params })).data as Json[];
    expect(listed.find((p) => p.id === a!.id)).toMatchObject({
      prompt: entry.prompt,
      status: 'active',
      topic: a!.topic,
    });
  });

  it('names the entry that cannot be created, and creates none of the batch', async () => {
    const params = { category_id: ids.category };
    const before = (await call('prompts', { params })).info.total_rows;
    const detail = await issue(
      call('createPrompts', {
        params,
        body: { prompts: [entry, { ...entry, language: 'tlh', regions: ['Atlantis'] }] },
      }),
    );
    expect(detail.map((d) => d.loc)).toEqual([
      ['body', 'prompts', 1, 'language'],
      ['body', 'prompts', 1, 'regions', 0],
    ]);
    expect(
      (await issue(call('createPrompts', { params, body: { prompts: [{ ...entry, regions: [] }] } })))[0],
    ).toMatchObject({ loc: ['body', 'prompts', 0, 'regions'], type: 'too_short' });
    expect(
      (await issue(call('createPrompts', { params, body: { prompts: [{ ...entry, prompt: undefined }] } })))[0],
    ).toMatchObject({ loc: ['body', 'prompts', 0, 'prompt'], type: 'missing' });
    expect((await call('prompts', { params })).info.total_rows).toBe(before);
  });
});

describe('PATCH …/prompts: the 422s the schema names', () => {
  it('names the field', async () => {
    const params = { category_id: ids.category };
    const id = String(
      (await query(engine, sql`SELECT id FROM prompts WHERE category_id = ${ids.category} LIMIT 1`))[0]!.id,
    );
    const cases: [unknown, (string | number)[], string][] = [
      [{}, ['body', 'prompts'], 'missing'],
      [{ prompts: [] }, ['body', 'prompts'], 'too_short'],
      [{ prompts: [{ prompt: 'x' }] }, ['body', 'prompts', 0, 'id'], 'missing'],
      [{ prompts: [{ id: 'p1', prompt: 'x' }] }, ['body', 'prompts', 0, 'id'], 'uuid_parsing'],
      [{ prompts: [{ id, colour: 'red' }] }, ['body', 'prompts', 0, 'colour'], 'extra_forbidden'],
      [{ prompts: [{ id, prompt: '' }] }, ['body', 'prompts', 0, 'prompt'], 'string_too_short'],
      [{ prompts: [{ id, regions: [] }] }, ['body', 'prompts', 0, 'regions'], 'too_short'],
      [{ prompts: [{ id, analysis_types: ['seo'] }] }, ['body', 'prompts', 0, 'analysis_types', 0], 'literal_error'],
      [{ prompts: [{ id, tags: [{}] }] }, ['body', 'prompts', 0, 'tags', 0], 'value_error'],
      [{ prompts: [{ id, tags: [{ id: 5 }] }] }, ['body', 'prompts', 0, 'tags', 0, 'id'], 'string_type'],
      [
        { prompts: [{ id, topic: { name: 'x', colour: 1 } }] },
        ['body', 'prompts', 0, 'topic', 'colour'],
        'extra_forbidden',
      ],
      [{ prompts: [{ id, prompt: 'x' }], dry_run: 'maybe' }, ['body', 'dry_run'], 'bool_parsing'],
      [{ prompts: [{ id }] }, ['body', 'prompts', 0], 'value_error'],
      [{ prompts: [{ id: ids.siblingPrompt, prompt: 'x' }] }, ['body', 'prompts', 0, 'id'], 'value_error'],
      [
        {
          prompts: [
            { id, prompt: 'x' },
            { id, prompt: 'y' },
          ],
        },
        ['body', 'prompts', 1, 'id'],
        'value_error',
      ],
    ];
    for (const [body, loc, type] of cases) {
      const detail = await issue(call('updatePrompts', { params, body }));
      expect(detail[0], JSON.stringify(body)).toMatchObject({ loc, type });
    }
    expect(
      (
        await issue(
          call('updatePromptStatus', { params, body: { prompt_ids: [id, ids.foreignPrompt], status: 'disabled' } }),
        )
      )[0],
    ).toMatchObject({ loc: ['body', 'prompt_ids', 1] });
    expect(
      (await issue(call('updatePromptStatus', { params, body: { prompt_ids: [id], status: 'paused' } })))[0],
    ).toMatchObject({ loc: ['body', 'status'], type: 'literal_error' });
  });
});

describe('E10 content optimization', () => {
  it('pages an asset’s items newest first and echoes limit and offset', async () => {
    const params = { asset_id: ids.ownedAsset };
    const all = await call('contentOptimizations', { params });
    expect(all.info).toEqual({
      total_rows: all.data.length,
      query: { asset_id: ids.ownedAsset, pagination: { limit: 100, offset: 0 } },
    });
    expect(all.data.length).toBeGreaterThan(2);
    expect(Object.keys(all.data[0]).sort()).toEqual(['created_at', 'extracted_input', 'id', 'status', 'title', 'type']);
    const dates = all.data.map((d: Json) => d.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    const page = await call('contentOptimizations', { params, query: { limit: '2', offset: '1' } });
    expect(page.data).toEqual(all.data.slice(1, 3));
    expect(page.info).toEqual({
      total_rows: all.data.length,
      query: { asset_id: ids.ownedAsset, pagination: { limit: 2, offset: 1 } },
    });
    expect((await call('contentOptimizations', { params, query: { limit: '50000', offset: '999' } })).data).toEqual([]);
    expect((await issue(call('contentOptimizations', { params, query: { limit: '50001' } })))[0]).toMatchObject({
      loc: ['query', 'limit'],
      type: 'less_than_equal',
      ctx: { le: 50000 },
    });
    expect((await issue(call('contentOptimizations', { params, query: { offset: '-1' } })))[0]).toMatchObject({
      loc: ['query', 'offset'],
      type: 'greater_than_equal',
      ctx: { ge: 0 },
    });
    expect((await issue(call('contentOptimizations', { params, query: { limit: 'ten' } })))[0]).toMatchObject({
      loc: ['query', 'limit'],
      type: 'int_parsing',
    });

    const detail = await call('contentOptimization', { params: { ...params, content_id: all.data[0].id } });
    expect(Object.keys(detail.data).sort()).toEqual([
      'aeo_content_score',
      'analysis',
      'content',
      'inputs',
      'recommendations',
    ]);
    expect(
      await failure(
        call('contentOptimization', { params: { asset_id: ids.siblingAsset, content_id: all.data[0].id } }),
      ),
    ).toBeInstanceOf(NotFoundError);
    expect(await failure(call('contentOptimizations', { params: { asset_id: ids.foreignAsset } }))).toBeInstanceOf(
      ForbiddenError,
    );
    expect(
      await failure(
        call('contentOptimization', { params: { asset_id: ids.foreignAsset, content_id: all.data[0].id } }),
      ),
    ).toBeInstanceOf(ForbiddenError);
    expect(
      await failure(call('contentOptimizations', { params: { asset_id: '0f0f0f0f-0000-4000-8000-000000000000' } })),
    ).toBeInstanceOf(NotFoundError);
  });
});
