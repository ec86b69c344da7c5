import { z } from 'zod';
import { NotFoundError } from '../../errors.ts';
import { fingerprint } from '../../query/cursor.ts';
import { laxInt, zUuid } from '../../query/schema-types.ts';
import { list, sql } from '../../query/sql.ts';
import { authorize } from '../../reports/core/authorize.ts';
import { jsonResult, type CallContext, type Endpoint, type EndpointInput } from '../../reports/endpoint.ts';
import { parsePath, parseQuery, queryList, queryScalar } from '../params.ts';
import { execute, readRows } from '../../engine/rows.ts';
import { agentDetail, agentStatusSql, agentSummary, definitionOf, readVersion } from './agent-rows.ts';

export const agentPath = z.object({ agent_id: zUuid() });

/** The agent of the path, after the tenancy check (403 another organization's, 404 none's). */
export function agentOf(input: EndpointInput, ctx: CallContext): string {
  const { agent_id } = parsePath(agentPath, input);
  authorize(ctx, [{ kind: 'agent', id: agent_id }]);
  return agent_id;
}

const listQuery = z.object({
  statuses: queryList(z.enum(['published', 'draft']))
    .optional()
    .describe('default published'),
  limit: queryScalar(laxInt(z.int().min(1).max(100)))
    .optional()
    .describe('1 to 100, default 20'),
  next_cursor: queryScalar(z.string().max(4096)).optional().describe('pagination.next_cursor of the previous page'),
});

const versionQuery = z.object({
  version: queryScalar(z.enum(['published', 'draft']))
    .optional()
    .describe('default published'),
});

export const agentEndpoints: readonly Endpoint[] = [
  {
    method: 'GET',
    path: '/v1/agents',
    name: 'agents',
    group: 'resources',
    summary: 'The organization’s agents, oldest first; published ones by default',
    tags: ['Agents'],
    stream: false,
    schemas: { query: listQuery },
    async handle(input: EndpointInput, ctx: CallContext) {
      const q = parseQuery(listQuery, input);
      const statuses = [...new Set(q.statuses ?? ['published'])].sort();
      const limit = q.limit ?? 20;
      const print = fingerprint({ list: 'agents', org: ctx.organizationId, statuses });
      const after = q.next_cursor
        ? (ctx.cursors.decodeKey(q.next_cursor, print, ['query', 'next_cursor']) as [string, string])
        : null;
      const keyset = after
        ? sql`(epoch_us(created_at) > ${BigInt(after[0])} OR (epoch_us(created_at) = ${BigInt(after[0])} AND id > ${after[1]}))`
        : sql`TRUE`;
      const rows = await ctx.core.state.read((conn) =>
        readRows(
          conn,
          sql`SELECT * FROM (SELECT a.*, ${agentStatusSql} AS status, epoch_us(a.created_at)::VARCHAR AS k FROM state.agents a WHERE a.organization_id = ${ctx.organizationId})
              WHERE status IN (${list(statuses)}) AND ${keyset} ORDER BY created_at, id LIMIT ${limit + 1}`,
        ),
      );
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      const next = rows.length > limit && last ? ctx.cursors.encodeKey([String(last.k), String(last.id)], print) : null;
      return jsonResult({ data: page.map(agentSummary), pagination: { limit, next_cursor: next } });
    },
  },
  {
    method: 'GET',
    path: '/v1/agents/{agent_id}',
    name: 'agent',
    group: 'resources',
    summary:
      'One agent with its live version (or its draft, ?version=draft): input and output JSON Schemas and the workflow',
    tags: ['Agents'],
    stream: false,
    schemas: { params: agentPath, query: versionQuery },
    async handle(input: EndpointInput, ctx: CallContext) {
      const agentId = agentOf(input, ctx);
      const q = parseQuery(versionQuery, input);
      const v = await ctx.core.state.read((conn) => readVersion(conn, agentId, q.version ?? 'published'));
      return jsonResult(agentDetail(v));
    },
  },
  {
    method: 'POST',
    path: '/v1/agents/{agent_id}/publish',
    name: 'publishAgent',
    group: 'resources',
    summary:
      'Make the agent’s draft its live version (the previous live version is superseded); without a draft, nothing changes',
    tags: ['Agents'],
    stream: false,
    schemas: { params: agentPath },
    async handle(input: EndpointInput, ctx: CallContext) {
      const agentId = agentOf(input, ctx);
      const live = await ctx.core.state.transaction(async (conn) => {
        const draft = await readVersion(conn, agentId, 'draft').catch((error: unknown) => {
          if (error instanceof NotFoundError) return null;
          throw error;
        });
        if (!draft) return readVersion(conn, agentId, 'published');
        definitionOf(draft);
        await execute(
          conn,
          sql`UPDATE state.agent_versions SET status = 'superseded' WHERE agent_id = ${agentId} AND status = 'published'`,
        );
        await execute(
          conn,
          sql`UPDATE state.agent_versions SET status = 'published' WHERE agent_id = ${agentId} AND version = ${Number(draft.version.version)}`,
        );
        return readVersion(conn, agentId, 'published');
      });
      return jsonResult(agentDetail(live));
    },
  },
];
