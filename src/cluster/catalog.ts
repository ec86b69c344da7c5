import type { ColumnDef, ColumnType } from '../model/column.ts';
import { tableNames, tables } from '../model/tables.ts';
import { clickhouseType, derivedStateViews } from '../engine/clickhouse-tables.ts';

/** A column as the server stores it: its ClickHouse type, `Nullable(…)` when the contract allows NULL. */
export interface CatalogColumn {
  readonly name: string;
  readonly type: string;
}

/**
 * A table the server holds under the contract's name. `sharded` tables are split across shards by
 * organization; `whole` tables are small and every shard holds all their rows, so a join with them
 * never leaves the shard.
 */
export interface CatalogTable {
  readonly name: string;
  readonly columns: readonly CatalogColumn[];
  readonly orderBy: readonly string[];
  readonly placement: 'sharded' | 'whole';
}

/** A view that is the union of tables' shared columns (`request_log`: every request to a domain). */
export interface CatalogUnion {
  readonly name: string;
  readonly of: readonly string[];
  readonly columns: readonly string[];
}

export interface Catalog {
  readonly tables: readonly CatalogTable[];
  readonly unions: readonly CatalogUnion[];
}

const typeOf = (c: ColumnDef): string => {
  const type = clickhouseType[c.type];
  // ClickHouse has no nullable arrays; the contract has none either, and an empty list stands for none.
  return c.nullable && !type.startsWith('Array') ? `Nullable(${type})` : type;
};

const has = (columns: Record<string, ColumnDef>, names: readonly string[]) =>
  names.every((n) => n in columns && !columns[n]!.nullable);

/**
 * The sort key: Insights facts by tenant, category and the New York day the v2 windows filter on
 * (then the instant, which the v1 windows filter on); traffic by tenant, domain and instant, as the
 * traffic reports filter; every other table by the contract's sort order (its non-null columns).
 */
function placementOf(
  columns: Record<string, ColumnDef>,
  sort: readonly string[],
): Pick<CatalogTable, 'orderBy' | 'placement'> {
  const insights = ['organization_id', 'category_id', 'day', 'executed_at'];
  const traffic = ['organization_id', 'domain', 'ts'];
  if (has(columns, insights)) return { orderBy: insights, placement: 'sharded' };
  if (has(columns, traffic)) return { orderBy: traffic, placement: 'sharded' };
  return { orderBy: sort.filter((c) => has(columns, [c])), placement: 'whole' };
}

const column = (type: ColumnType, nullable = false): ColumnDef => ({ type, nullable, doc: '' });

/**
 * The state store's derived views (src/state/derived-views.ts), which the reports read as tables: the
 * loader writes them from the dataset's knowledge base as it is when loaded.
 */
const derived: Record<
  (typeof derivedStateViews)[number],
  { columns: Record<string, ColumnDef>; sort: readonly string[] }
> = {
  kb_sections: {
    columns: {
      organization_id: column('VARCHAR'),
      knowledge_base_id: column('VARCHAR'),
      document_id: column('VARCHAR'),
      path: column('VARCHAR'),
      updated_at: column('TIMESTAMPTZ'),
      section: column('INTEGER'),
      body: column('VARCHAR'),
    },
    sort: ['organization_id', 'knowledge_base_id', 'path', 'section'],
  },
  claim_evidence: {
    columns: {
      id: column('VARCHAR'),
      organization_id: column('VARCHAR'),
      cluster_id: column('VARCHAR'),
      kb_path: column('VARCHAR'),
      kb_snippet: column('VARCHAR'),
      source_updated_at: column('TIMESTAMPTZ'),
    },
    sort: ['organization_id', 'cluster_id', 'id'],
  },
};

const tableOf = (name: string, columns: Record<string, ColumnDef>, sort: readonly string[]): CatalogTable => ({
  name,
  columns: Object.entries(columns).map(([n, c]) => ({ name: n, type: typeOf(c) })),
  ...placementOf(columns, sort),
});

/**
 * Every table the reports read on a ClickHouse server: the contract's (facts, dimensions and the
 * state tables), the state store's two derived views, and `request_log`. A table the dataset leaves
 * out is created all the same and stays empty, as the engine's view of it is.
 */
export function contractCatalog(): Catalog {
  return {
    tables: [
      ...tableNames.map((t) => tableOf(t, tables[t].columns as Record<string, ColumnDef>, tables[t].sort)),
      ...derivedStateViews.map((v) => tableOf(v, derived[v].columns, derived[v].sort)),
    ],
    unions: [
      {
        name: 'request_log',
        of: ['bot_events', 'referral_visits'],
        columns: ['organization_id', 'domain_id', 'domain', 'ts', 'host', 'path'],
      },
    ],
  };
}
