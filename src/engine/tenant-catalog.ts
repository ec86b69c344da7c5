import type { DuckDBConnection } from '@duckdb/node-api';

export interface OrgSummary {
  readonly id: string;
  readonly name: string;
}

export type OwnedKind = 'category' | 'domain' | 'asset' | 'persona' | 'view' | 'agent' | 'knowledge_base';

const sources: Record<OwnedKind, string> = {
  category: 'SELECT id, organization_id FROM categories',
  domain: 'SELECT name AS id, organization_id FROM domains',
  asset: 'SELECT id, organization_id FROM assets',
  persona: 'SELECT id, organization_id FROM personas',
  view: 'SELECT id, organization_id FROM domain_views',
  agent: 'SELECT id, organization_id FROM agents',
  knowledge_base: 'SELECT id, organization_id FROM knowledge_bases',
};

/**
 * Who owns what, read once at open from the small dimension tables. Ownership checks run against
 * these maps before any fact is read, so a foreign id is refused without touching its data.
 */
export class TenantCatalog {
  private constructor(
    readonly organizations: readonly OrgSummary[],
    private readonly owners: Record<OwnedKind, Map<string, string>>,
  ) {}

  static async load(conn: DuckDBConnection): Promise<TenantCatalog> {
    const orgs = (await conn.runAndReadAll('SELECT id, name FROM organizations ORDER BY name, id')).getRowsJS();
    const owners = {} as Record<OwnedKind, Map<string, string>>;
    for (const [kind, sql] of Object.entries(sources) as [OwnedKind, string][]) {
      const rows = (await conn.runAndReadAll(sql)).getRowsJS();
      owners[kind] = new Map(rows.map((r) => [String(r[0]), String(r[1])]));
    }
    return new TenantCatalog(
      orgs.map((r) => ({ id: String(r[0]), name: String(r[1]) })),
      owners,
    );
  }

  hasOrganization(id: string): boolean {
    return this.organizations.some((o) => o.id === id);
  }

  /** The owning organization of an object, or undefined when no such object exists. */
  ownerOf(kind: OwnedKind, id: string): string | undefined {
    return this.owners[kind].get(id);
  }

  idsOf(kind: OwnedKind, orgId: string): string[] {
    return [...this.owners[kind]].filter(([, owner]) => owner === orgId).map(([id]) => id);
  }
}
