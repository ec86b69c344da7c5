import { sql, type Fragment } from '../query/sql.ts';
import { type CallContext, type Endpoint, type EndpointInput } from '../reports/endpoint.ts';
import { assetJson, personaProfile } from './category-listings.ts';
import { checkOrganizationIds, organizationIdsQuery, parseQuery } from './params.ts';
import { isoOrNull, readRows, strings, type Row } from '../engine/rows.ts';
import { cachedListing } from './listing-cache.ts';

const organization = (r: Row) => ({
  id: String(r.organization_id),
  name: r.organization_name === null ? null : String(r.organization_name),
});
const category = (r: Row) => ({ id: String(r.category_id), name: String(r.category_name) });

interface Listing {
  readonly path: string;
  readonly name: string;
  readonly summary: string;
  /** Takes `organization_ids`, which may only name the caller's organization. */
  readonly byOrganization: boolean;
  sql(organizationId: string): Fragment;
  shape(rows: Row[]): unknown;
}

const listing = (l: Listing): Endpoint => ({
  method: 'GET',
  path: l.path,
  name: l.name,
  group: 'resources',
  summary: l.summary,
  tags: ['Organization'],
  stream: false,
  schemas: l.byOrganization ? { query: organizationIdsQuery } : {},
  async handle(input: EndpointInput, ctx: CallContext) {
    if (l.byOrganization) checkOrganizationIds(parseQuery(organizationIdsQuery, input).organization_ids, ctx);
    const json = await cachedListing(ctx.core.state, `${l.path}|${ctx.organizationId}`, async () => {
      const rows = await ctx.core.state.read((conn) => readRows(conn, l.sql(ctx.organizationId)));
      return JSON.stringify(l.shape(rows));
    });
    return { kind: 'json', status: 200, json };
  },
});

/** The organization listings (api-facts section 5) and the citation vocabularies. Every row is the caller's. */
export const orgEndpoints: readonly Endpoint[] = [
  listing({
    path: '/v1/org',
    name: 'organizations',
    summary: 'The organizations this key sees: its own',
    byOrganization: false,
    sql: (org) => sql`SELECT id, name FROM organizations WHERE id = ${org}`,
    shape: (rows) => rows.map((r) => ({ id: String(r.id), name: r.name === null ? null : String(r.name) })),
  }),
  listing({
    path: '/v1/org/categories',
    name: 'categories',
    summary: 'The Answer Engine Insights categories of the organization',
    byOrganization: true,
    sql: (
      org,
    ) => sql`SELECT c.id, c.name, c.organization_id, o.name AS organization_name FROM categories c JOIN organizations o ON o.id = c.organization_id
                      WHERE c.organization_id = ${org} ORDER BY c.name, c.id`,
    shape: (rows) => rows.map((r) => ({ id: String(r.id), name: String(r.name), organization: organization(r) })),
  }),
  listing({
    path: '/v1/org/domains',
    name: 'domains',
    summary: 'The web domains the organization tracks for bot and referral traffic',
    byOrganization: true,
    sql: (
      org,
    ) => sql`SELECT d.id, d.name, d.created_at, d.organization_id, o.name AS organization_name FROM domains d JOIN organizations o ON o.id = d.organization_id
                      WHERE d.organization_id = ${org} ORDER BY d.name, d.id`,
    shape: (rows) =>
      rows.map((r) => ({
        id: String(r.id),
        created_at: isoOrNull(r.created_at),
        name: String(r.name),
        organization: organization(r),
      })),
  }),
  listing({
    path: '/v1/org/personas',
    name: 'personas',
    summary: 'The personas of every category of the organization',
    byOrganization: true,
    sql: (org) => sql`SELECT p.*, c.name AS category_name, o.name AS organization_name FROM personas p
                      JOIN categories c ON c.id = p.category_id JOIN organizations o ON o.id = p.organization_id
                      WHERE p.organization_id = ${org} ORDER BY c.name, c.id, p.name, p.id`,
    shape: (rows) => ({
      data: rows.map((r) => ({
        id: String(r.id),
        name: String(r.name),
        category: category(r),
        organization: organization(r),
        persona: personaProfile(r),
      })),
    }),
  }),
  listing({
    path: '/v1/org/assets',
    name: 'assets',
    summary: 'The brands tracked in every category of the organization',
    byOrganization: true,
    sql: (org) => sql`SELECT a.*, c.name AS category_name, o.name AS organization_name FROM assets a
                      JOIN categories c ON c.id = a.category_id JOIN organizations o ON o.id = a.organization_id
                      WHERE a.organization_id = ${org} ORDER BY c.name, c.id, a.name, a.id`,
    shape: (rows) => ({
      data: rows.map((r) => ({ ...assetJson(r), category: category(r), organization: organization(r) })),
    }),
  }),
  listing({
    path: '/v1/org/models',
    name: 'models',
    summary: 'The answer engines (models) prompts run on',
    byOrganization: false,
    sql: () => sql`SELECT id, name FROM models ORDER BY name, id`,
    shape: (rows) => rows.map((r) => ({ id: String(r.id), name: String(r.name) })),
  }),
  listing({
    path: '/v1/org/regions',
    name: 'regions',
    summary: 'The regions prompts run in',
    byOrganization: true,
    sql: () => sql`SELECT id, name FROM regions ORDER BY name, id`,
    shape: (rows) => rows.map((r) => ({ id: String(r.id), name: String(r.name) })),
  }),
  listing({
    path: '/v1/org/citation-tags',
    name: 'citationTags',
    summary:
      'The organization’s citation tags (the v2 citations citation_tag filter) with the root domains each labels',
    byOrganization: true,
    sql: (org) => sql`SELECT t.id, t.name, t.organization_id, o.name AS organization_name,
                        coalesce((SELECT list(d.root_domain ORDER BY d.root_domain) FROM citation_tag_domains d WHERE d.tag_id = t.id), []) AS root_domains
                      FROM citation_tags t JOIN organizations o ON o.id = t.organization_id
                      WHERE t.organization_id = ${org} ORDER BY t.name, t.id`,
    shape: (rows) => ({
      data: rows.map((r) => ({
        id: String(r.id),
        name: String(r.name),
        root_domains: strings(r.root_domains),
        organization: organization(r),
      })),
    }),
  }),
  listing({
    path: '/v1/org/citation-categories',
    name: 'citationCategories',
    summary: 'The citation categories the organization sees: the standard ones and its custom ones',
    byOrganization: true,
    sql: (
      org,
    ) => sql`SELECT c.id, c.name, c.kind, c.organization_id, o.name AS organization_name FROM citation_categories c JOIN organizations o ON o.id = c.organization_id
                      WHERE c.organization_id = ${org} ORDER BY c.kind DESC, c.name, c.id`,
    shape: (rows) => ({
      data: rows.map((r) => ({
        id: String(r.id),
        name: String(r.name),
        kind: String(r.kind),
        organization: organization(r),
      })),
    }),
  }),
];
