import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ConflictError, NotFoundError } from '../../errors.ts';
import { zUuid } from '../../query/schema-types.ts';
import { sql } from '../../query/sql.ts';
import { parseWith } from '../../query/validation.ts';
import { jsonResult, type CallContext, type Endpoint, type EndpointInput } from '../../reports/endpoint.ts';
import { parsePath } from '../params.ts';
import { execute, readRows } from '../../engine/rows.ts';
import { definitionOf, readVersion, runJson } from './agent-rows.ts';
import { agentOf, agentPath } from './agents.ts';
import { checkInputs } from './definition.ts';

const runBody = z.strictObject({
  inputs: z
    .record(z.string(), z.unknown())
    .nullable()
    .optional()
    .describe('keyed by the property names of the live version’s input schema'),
});

const runPath = z.object({ agent_id: zUuid(), run_id: zUuid() });

export const runEndpoints: readonly Endpoint[] = [
  {
    method: 'POST',
    path: '/v1/agents/{agent_id}/runs',
    name: 'createAgentRun',
    group: 'resources',
    summary:
      'Start a run of the agent’s live version; answers 202 with the queued run, which executes in the background',
    tags: ['Agents'],
    stream: false,
    schemas: { params: agentPath, body: runBody },
    async handle(input: EndpointInput, ctx: CallContext) {
      const agentId = agentOf(input, ctx);
      const body = parseWith(runBody, input.body ?? {});
      const inputs = body.inputs ?? {};
      const run = await ctx.core.state.transaction(async (conn) => {
        const live = await readVersion(conn, agentId, 'published').catch((error: unknown) => {
          if (error instanceof NotFoundError) {
            throw new ConflictError(
              `agent ${agentId} has never been published, so it cannot run; publish it first (POST /v1/agents/${agentId}/publish)`,
              'agent_not_published',
            );
          }
          throw error;
        });
        checkInputs(definitionOf(live), inputs);
        const id = randomUUID();
        const now = ctx.now.toISOString();
        await execute(
          conn,
          sql`INSERT INTO state.agent_runs (id, organization_id, agent_id, version, status, inputs, outputs, error, created_at, started_at, finished_at)
              VALUES (${id}, ${ctx.organizationId}, ${agentId}, ${Number(live.version.version)}, 'queued', ${JSON.stringify(inputs)}, '{}', NULL, CAST(${now} AS TIMESTAMPTZ), NULL, NULL)`,
        );
        return {
          id,
          agent_id: agentId,
          status: 'queued',
          started_at: null,
          version: Number(live.version.version),
          created_at: now,
        };
      });
      ctx.core.runner.notify();
      return jsonResult(run, 202);
    },
  },
  {
    method: 'GET',
    path: '/v1/agents/{agent_id}/runs/{run_id}',
    name: 'agentRun',
    group: 'resources',
    summary: 'One run: its status, when it started and finished, its outputs (keyed by step id) and its error',
    tags: ['Agents'],
    stream: false,
    schemas: { params: runPath },
    async handle(input: EndpointInput, ctx: CallContext) {
      const agentId = agentOf(input, ctx);
      const { run_id } = parsePath(runPath, input);
      const rows = await ctx.core.state.read((conn) =>
        readRows(conn, sql`SELECT * FROM state.agent_runs WHERE id = ${run_id} AND agent_id = ${agentId}`),
      );
      if (!rows[0]) throw new NotFoundError(`run ${run_id} of agent ${agentId} not found`);
      return jsonResult(runJson(rows[0]));
    },
  },
];
