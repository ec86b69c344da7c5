import type { AgentRun } from '../../engine/resource-types.ts';
import type { DuckDBConnection } from '@duckdb/node-api';
import { NotFoundError } from '../../errors.ts';
import { sql } from '../../query/sql.ts';
import { isoOrNull, readRows, stringOrNull, type Row } from '../../engine/rows.ts';
import { loadDefinition, type AgentDefinition } from './definition.ts';

/** `published` when the agent has a live version, else `draft` (never published). */
export const agentStatusSql = sql`CASE WHEN EXISTS (SELECT 1 FROM state.agent_versions v WHERE v.agent_id = a.id AND v.status = 'published') THEN 'published' ELSE 'draft' END`;

export const agentSummary = (r: Row) => ({
  id: String(r.id),
  name: String(r.name),
  description: stringOrNull(r.description),
  organization_id: String(r.organization_id),
  created_at: isoOrNull(r.created_at),
  status: String(r.status),
});

export interface VersionRow {
  readonly agent: Row;
  readonly version: Row;
}

/** The agent with its live (`published`) or `draft` version; 404 when it has none of that kind. */
export async function readVersion(
  conn: DuckDBConnection,
  agentId: string,
  which: 'published' | 'draft',
): Promise<VersionRow> {
  const agents = await readRows(
    conn,
    sql`SELECT a.*, ${agentStatusSql} AS status FROM state.agents a WHERE a.id = ${agentId}`,
  );
  const versions = await readRows(
    conn,
    sql`SELECT * FROM state.agent_versions WHERE agent_id = ${agentId} AND status = ${which} ORDER BY version DESC LIMIT 1`,
  );
  if (!agents[0]) throw new NotFoundError(`agent ${agentId} not found`);
  if (!versions[0])
    throw new NotFoundError(
      which === 'published' ? `agent ${agentId} has no published version` : `agent ${agentId} has no draft`,
    );
  return { agent: agents[0], version: versions[0] };
}

export function definitionOf(v: VersionRow): AgentDefinition {
  return loadDefinition(String(v.agent.id), Number(v.version.version), {
    workflow: String(v.version.workflow),
    input_schema: String(v.version.input_schema),
    output_schema: String(v.version.output_schema),
  });
}

/** An agent as GET /v1/agents/{agent_id} shows it: the summary, the version, its schemas and its workflow. */
export function agentDetail(v: VersionRow) {
  const d = definitionOf(v);
  return {
    ...agentSummary(v.agent),
    version: Number(v.version.version),
    version_status: String(v.version.status),
    version_created_at: isoOrNull(v.version.created_at),
    schema: { input: d.inputSchema, output: d.outputSchema },
    workflow: d.workflow,
  };
}

export const runJson = (r: Row): AgentRun => ({
  id: String(r.id),
  agent_id: String(r.agent_id),
  version: Number(r.version),
  status: String(r.status),
  inputs: JSON.parse(String(r.inputs)) as unknown,
  outputs: JSON.parse(String(r.outputs)) as unknown,
  error: r.error === null || r.error === undefined ? null : (JSON.parse(String(r.error)) as unknown),
  created_at: isoOrNull(r.created_at),
  started_at: isoOrNull(r.started_at),
  finished_at: isoOrNull(r.finished_at),
});
