import { ValidationError } from '../errors.ts';
import type { Catalog, CatalogTable } from './catalog.ts';
import { rollupStatements, type ClickHouseRollup } from './rollup-ddl.ts';

const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A database or cluster name as it may enter DDL: statements cannot bind identifiers, so a name is
 * spliced only once it is a plain identifier. A ValidationError (the CLI's exit 2) otherwise.
 */
export function checkIdentifier(name: string, what: string): string {
  if (!identifier.test(name))
    throw ValidationError.of(
      [what],
      `must be a plain identifier (/^[A-Za-z_][A-Za-z0-9_]*$/), got ${JSON.stringify(name)}`,
    );
  return name;
}

export interface SchemaOptions {
  readonly database: string;
  /** A cluster of the servers' `remote_servers`: sharded tables become `<t>_local` on every shard plus a Distributed table. */
  readonly cluster?: string;
  /** The rollups to keep beside the facts (store, feed and view each; `src/reports/clickhouse-rollups.ts`), none when left out. */
  readonly rollups?: readonly ClickHouseRollup[];
}

/** Columns are quoted: contract names such as `path`, `day` or `text` are also ClickHouse words. */
const columnList = (t: CatalogTable) =>
  t.columns.map((c) => `"${checkIdentifier(c.name, 'column')}" ${c.type}`).join(', ');

const orderBy = (t: CatalogTable) => `ORDER BY (${t.orderBy.map((c) => `"${c}"`).join(', ')})`;

/**
 * Every node of the cluster replicates one copy of a whole table: the replica path leaves out
 * `{shard}`, so all shards share it, and `{replica}` (a macro each server defines) tells the nodes apart.
 */
const everyNode = `ReplicatedMergeTree('/clickhouse/tables/{database}/{table}/all', '{replica}')`;

/**
 * The DDL that creates the catalog's tables in `database`, each statement idempotent (IF NOT EXISTS),
 * in an order where every statement finds what it refers to. A pure function of the catalog: every
 * identifier comes from it or is checked, and no value is spliced.
 */
export function schemaStatements(catalog: Catalog, options: SchemaOptions): string[] {
  const db = checkIdentifier(options.database, 'database');
  const cluster = options.cluster === undefined ? undefined : checkIdentifier(options.cluster, 'cluster');
  const on = cluster ? ` ON CLUSTER ${cluster}` : '';
  const out = [`CREATE DATABASE IF NOT EXISTS ${db}${on}`];
  for (const t of catalog.tables) {
    const name = checkIdentifier(t.name, 'table');
    if (!cluster) {
      out.push(`CREATE TABLE IF NOT EXISTS ${db}.${name} (${columnList(t)}) ENGINE = MergeTree ${orderBy(t)}`);
    } else if (t.placement === 'whole') {
      out.push(`CREATE TABLE IF NOT EXISTS ${db}.${name}${on} (${columnList(t)}) ENGINE = ${everyNode} ${orderBy(t)}`);
    } else {
      // A tenant's rows all land on one shard, so a report (one organization) is answered by one shard.
      out.push(
        `CREATE TABLE IF NOT EXISTS ${db}.${name}_local${on} (${columnList(t)}) ENGINE = MergeTree ${orderBy(t)}`,
      );
      out.push(
        `CREATE TABLE IF NOT EXISTS ${db}.${name}${on} AS ${db}.${name}_local ENGINE = Distributed(${cluster}, ${db}, ${name}_local, cityHash64(organization_id))`,
      );
    }
  }
  for (const u of catalog.unions) {
    const columns = u.columns.map((c) => `"${checkIdentifier(c, 'column')}"`).join(', ');
    const selects = u.of.map((t) => `SELECT ${columns} FROM ${db}.${checkIdentifier(t, 'table')}`).join(' UNION ALL ');
    out.push(`CREATE VIEW IF NOT EXISTS ${db}.${checkIdentifier(u.name, 'view')}${on} AS ${selects}`);
  }
  return [...out, ...rollupStatements(catalog, db, options.rollups ?? [], cluster)];
}
