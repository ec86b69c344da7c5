import type { DuckDBConnection } from '@duckdb/node-api';

export interface OrganizationListing {
  readonly id: string;
  readonly name: string;
  readonly categories: { id: string; name: string }[];
  readonly domains: { id: string; name: string }[];
  readonly assets: { id: string; name: string; category_id: string; is_owned: boolean }[];
}

/** Every organization with its categories, domains and assets: what `aea orgs` prints. */
export async function listOrganizations(conn: DuckDBConnection): Promise<OrganizationListing[]> {
  const reader = await conn.runAndReadAll(`
    SELECT to_json({
      id: o.id,
      name: o.name,
      categories: coalesce((SELECT list({id: c.id, name: c.name} ORDER BY c.name, c.id) FROM categories c WHERE c.organization_id = o.id), []),
      domains: coalesce((SELECT list({id: d.id, name: d.name} ORDER BY d.name, d.id) FROM domains d WHERE d.organization_id = o.id), []),
      assets: coalesce((SELECT list({id: a.id, name: a.name, category_id: a.category_id, is_owned: a.is_owned} ORDER BY a.category_id, a.name, a.id)
                        FROM assets a WHERE a.organization_id = o.id), [])
    })::VARCHAR
    FROM organizations o ORDER BY o.name, o.id`);
  return reader.getRowsJS().map((r) => JSON.parse(String(r[0])) as OrganizationListing);
}
