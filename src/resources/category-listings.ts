import { sql } from '../query/sql.ts';
import { type CallContext, type Endpoint, type EndpointInput } from '../reports/endpoint.ts';
import { categoryOf, categoryPath } from './params.ts';
import { isoOrNull, readRows, readRowsInChunks, strings, stringOrNull, type Row } from '../engine/rows.ts';
import { cachedListing } from './listing-cache.ts';

/** A persona's profile exactly as the seed shows it; a missing text is null. */
export const personaProfile = (r: Row) => ({
  behavior: { painPoints: stringOrNull(r.pain_points), motivations: stringOrNull(r.motivations) },
  employment: {
    industry: strings(r.industry),
    jobTitle: strings(r.job_title),
    companySize: strings(r.company_size),
    roleSeniority: strings(r.role_seniority),
  },
  demographics: { ageRange: strings(r.age_range) },
});

export const assetJson = (r: Row) => ({
  id: String(r.id),
  name: String(r.name),
  created_at: isoOrNull(r.created_at),
  is_owned: Boolean(r.is_owned),
  website: stringOrNull(r.website),
  logo_url: stringOrNull(r.logo_url),
  alternate_domains: strings(r.alternate_domains),
});

const categoryEndpoint = (
  path: string,
  name: string,
  summary: string,
  read: (categoryId: string, ctx: CallContext) => Promise<unknown>,
): Endpoint => ({
  method: 'GET',
  path: `/v1/org/categories/{category_id}/${path}`,
  name,
  group: 'resources',
  summary,
  tags: ['Organization'],
  stream: false,
  schemas: { params: categoryPath },
  async handle(input: EndpointInput, ctx: CallContext) {
    const categoryId = categoryOf(input, ctx);
    const json = await cachedListing(ctx.core.state, `${path}|${categoryId}`, async () =>
      JSON.stringify(await read(categoryId, ctx)),
    );
    return { kind: 'json', status: 200, json };
  },
});

// A category's topics and tags grow with its edits: they cross into JS a chunk at a time.
const rowsOf = (ctx: CallContext, fragment: Parameters<typeof readRows>[1]) =>
  ctx.core.state.read((conn) => readRowsInChunks(conn, fragment));

/** Per-category listings: personas (E11), assets, topics, tags. */
export const categoryEndpoints: readonly Endpoint[] = [
  categoryEndpoint(
    'personas',
    'categoryPersonas',
    'The personas of a category with their profiles',
    async (categoryId, ctx) => {
      const rows = await rowsOf(ctx, sql`SELECT * FROM personas WHERE category_id = ${categoryId} ORDER BY name, id`);
      return { data: rows.map((r) => ({ id: String(r.id), name: String(r.name), persona: personaProfile(r) })) };
    },
  ),
  categoryEndpoint('assets', 'categoryAssets', 'The brands tracked in a category', async (categoryId, ctx) => {
    const rows = await rowsOf(ctx, sql`SELECT * FROM assets WHERE category_id = ${categoryId} ORDER BY name, id`);
    return rows.map(assetJson);
  }),
  categoryEndpoint('topics', 'categoryTopics', 'The topics of a category', async (categoryId, ctx) => {
    const rows = await rowsOf(
      ctx,
      sql`SELECT id, name, status FROM topics WHERE category_id = ${categoryId} ORDER BY name, id`,
    );
    return rows.map((r) => ({ id: String(r.id), name: String(r.name), status: String(r.status) }));
  }),
  categoryEndpoint('tags', 'categoryTags', 'The prompt tags of a category', async (categoryId, ctx) => {
    const rows = await rowsOf(ctx, sql`SELECT id, name FROM tags WHERE category_id = ${categoryId} ORDER BY name, id`);
    return rows.map((r) => ({ id: String(r.id), name: String(r.name) }));
  }),
];
