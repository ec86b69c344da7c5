import type { BackgroundWorker } from '../../engine/core.ts';
import { EngineError } from '../../errors.ts';
import { sql } from '../../query/sql.ts';
import type { EndpointInput, EndpointResult } from '../../reports/endpoint.ts';
import type { Match } from '../../reports/routes.ts';
import type { StateStore } from '../../state/store.ts';
import { execute, readRows, type Row } from '../../engine/rows.ts';
import { loadDefinition, schemaIssues, stepRequest, type AgentDefinition, type Step } from './definition.ts';

/** Runs one request as an organization, exactly as `engine.org(id).call` does. */
export type Executor = (
  organizationId: string,
  method: string,
  path: string,
  input: EndpointInput,
) => Promise<EndpointResult>;

interface ClaimedRun {
  readonly id: string;
  readonly organizationId: string;
  readonly agentId: string;
  readonly version: number;
  readonly inputs: Record<string, unknown>;
  readonly texts: { workflow: string; input_schema: string; output_schema: string };
}

class StepFailure extends Error {
  constructor(readonly error: Record<string, unknown>) {
    super(String(error.message));
  }
}

/**
 * Executes queued agent runs in the background, one at a time, oldest first: queued → running →
 * succeeded | failed | skipped. Each step is a request to this engine made as the run's organization;
 * outputs are saved after every step. `stop()` lets the current step finish and puts its run back in
 * the queue; a run found `running` when the store opens was cut off by a crash and is marked failed.
 */
export class AgentRunner implements BackgroundWorker {
  private started = false;
  private stopping = false;
  private active: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly state: StateStore,
    private readonly clock: () => Date,
    private readonly executor: Executor,
    /** The operations a step may name: the host's registry (the runner imports none). */
    private readonly match: (method: string, path: string) => Match | undefined,
  ) {}

  async start(): Promise<void> {
    await this.recover();
    this.started = true;
    this.notify();
  }

  /** Wakes the runner after a run was queued. */
  notify(): void {
    if (!this.started || this.stopping) return;
    if (this.active) {
      this.again = true;
      return;
    }
    this.active = this.drain()
      .catch(() => undefined)
      .finally(() => {
        this.active = undefined;
        if (this.again) {
          this.again = false;
          this.notify();
        }
      });
  }

  /** Resolves when no run is queued or executing (the CLI waits for it before exiting). */
  async idle(): Promise<void> {
    while (this.active) await this.active;
  }

  /** Stops taking runs; resolves when the run in progress (if any) has been put back in the queue. Undefined when idle. */
  stop(): Promise<void> | undefined {
    this.stopping = true;
    return this.active;
  }

  private async recover(): Promise<void> {
    const stuck = await this.state.read((conn) =>
      readRows(conn, sql`SELECT count(*)::INTEGER AS n FROM state.agent_runs WHERE status = 'running'`),
    );
    if (Number(stuck[0]!.n) === 0) return;
    const error = {
      code: 'interrupted',
      message: 'the engine stopped (crashed or was killed) while this run was executing; start a new run',
    };
    await this.state.transaction((conn) =>
      execute(
        conn,
        sql`UPDATE state.agent_runs SET status = 'failed', error = ${JSON.stringify(error)}, finished_at = CAST(${this.now()} AS TIMESTAMPTZ) WHERE status = 'running'`,
      ),
    );
  }

  private now(): string {
    return this.clock().toISOString();
  }

  private async drain(): Promise<void> {
    this.again = false;
    while (!this.stopping) {
      const run = await this.claim();
      if (!run) return;
      await this.execute(run);
    }
  }

  private async claim(): Promise<ClaimedRun | undefined> {
    return this.state.transaction(
      async (conn) => {
        const rows = await readRows(
          conn,
          sql`SELECT r.*, v.workflow, v.input_schema, v.output_schema FROM state.agent_runs r
            JOIN state.agent_versions v ON v.agent_id = r.agent_id AND v.version = r.version
            WHERE r.status = 'queued' ORDER BY r.created_at, r.id LIMIT 1`,
        );
        const r: Row | undefined = rows[0];
        if (!r) return undefined;
        await execute(
          conn,
          sql`UPDATE state.agent_runs SET status = 'running', started_at = CAST(${this.now()} AS TIMESTAMPTZ) WHERE id = ${String(r.id)}`,
        );
        return {
          id: String(r.id),
          organizationId: String(r.organization_id),
          agentId: String(r.agent_id),
          version: Number(r.version),
          inputs: JSON.parse(String(r.inputs)) as Record<string, unknown>,
          texts: {
            workflow: String(r.workflow),
            input_schema: String(r.input_schema),
            output_schema: String(r.output_schema),
          },
        };
      },
      { changed: (run) => run !== undefined },
    );
  }

  private async execute(run: ClaimedRun): Promise<void> {
    const outputs: Record<string, unknown> = {};
    try {
      const definition = this.definition(run);
      if (definition.workflow.steps.length === 0) return await this.finish(run.id, 'skipped', outputs, null);
      for (const step of definition.workflow.steps) {
        if (this.stopping) return await this.requeue(run.id);
        outputs[step.id] = await this.step(run, step);
        await this.state.transaction((conn) =>
          execute(conn, sql`UPDATE state.agent_runs SET outputs = ${JSON.stringify(outputs)} WHERE id = ${run.id}`),
        );
      }
      const issues = schemaIssues(definition.validateOutputs, outputs, ['outputs']);
      if (issues.length > 0)
        throw new StepFailure({
          code: 'output_schema_mismatch',
          message: 'the outputs do not match the version’s output schema',
          detail: issues,
        });
      await this.finish(run.id, 'succeeded', outputs, null);
    } catch (error) {
      const detail =
        error instanceof StepFailure ? error.error : { code: 'internal_error', message: (error as Error).message };
      await this.finish(run.id, 'failed', outputs, detail);
    }
  }

  private definition(run: ClaimedRun): AgentDefinition {
    try {
      return loadDefinition(run.agentId, run.version, run.texts);
    } catch (error) {
      throw new StepFailure({ code: 'invalid_workflow', message: (error as Error).message });
    }
  }

  /** One step: only report requests and GET reads are allowed, so a run cannot edit data or start runs. */
  private async step(run: ClaimedRun, step: Step): Promise<unknown> {
    const request = stepRequest(step, run.inputs);
    const url = request.path.split('?')[0]!;
    const match = this.match(request.method, url);
    const allowed =
      match && !match.endpoint.stream && (match.endpoint.group === 'reports' || match.endpoint.method === 'GET');
    if (!allowed) {
      throw new StepFailure({
        step: step.id,
        code: 'step_not_allowed',
        message: `step '${step.id}': ${request.method} ${url} is not a report or a read this engine offers`,
      });
    }
    try {
      const result = await this.executor(run.organizationId, request.method, url, {
        body: request.body,
        query: request.query,
      });
      if (result.kind !== 'json') throw new Error('a step must answer JSON');
      return JSON.parse(result.json) as unknown;
    } catch (error) {
      if (error instanceof EngineError) {
        throw new StepFailure({
          step: step.id,
          status: error.status,
          code: error.code,
          message: error.message,
          detail: (error.body() as { detail?: unknown }).detail,
        });
      }
      throw new StepFailure({ step: step.id, status: 500, code: 'internal_error', message: (error as Error).message });
    }
  }

  private async finish(
    id: string,
    status: 'succeeded' | 'failed' | 'skipped',
    outputs: Record<string, unknown>,
    error: Record<string, unknown> | null,
  ): Promise<void> {
    await this.state.transaction((conn) =>
      execute(
        conn,
        sql`UPDATE state.agent_runs SET status = ${status}, outputs = ${JSON.stringify(outputs)}, error = ${error === null ? null : JSON.stringify(error)},
            finished_at = CAST(${this.now()} AS TIMESTAMPTZ) WHERE id = ${id}`,
      ),
    );
  }

  private async requeue(id: string): Promise<void> {
    await this.state.transaction((conn) =>
      execute(
        conn,
        sql`UPDATE state.agent_runs SET status = 'queued', started_at = NULL, outputs = '{}' WHERE id = ${id}`,
      ),
    );
  }
}
