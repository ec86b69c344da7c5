import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import { type Engine } from '../src/library/engine.ts';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../src/errors.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { pathLiteral } from '../src/engine/literal.ts';
import { sql } from '../src/query/sql.ts';
import { startChild } from './helpers/child.ts';
import { query, sampleIds } from './helpers/sample-org.ts';
import { tempDir } from './helpers/tmp.ts';

type Json = Record<string, any>;

let engine: Engine;
let ids: Awaited<ReturnType<typeof sampleIds>>;
let agents: { snapshot: string; digest: string; draftOnly: string; foreign: string };
const window = { start_date: '2026-10-01', end_date: '2026-10-31' };

async function agentIds(e: Engine, org: string) {
  const rows = await query(e, sql`SELECT id, name FROM dataset_agents WHERE organization_id = ${org}`);
  const named = (suffix: string) => String(rows.find((r) => String(r.name).endsWith(suffix))!.id);
  return {
    snapshot: named('visibility snapshot'),
    digest: named('bot traffic digest'),
    draftOnly: named('draft explorer'),
  };
}

/** Adds a draft version with the given workflow (a test's own agent definition). */
async function addDraft(e: Engine, agentId: string, steps: unknown[]) {
  const rows = await query(
    e,
    sql`SELECT max(version)::INTEGER AS v, any_value(organization_id) AS org, any_value(input_schema) AS s, any_value(output_schema) AS o FROM state.agent_versions WHERE agent_id = ${agentId}`,
  );
  const r = rows[0]!;
  await e.core.state.transaction((conn) =>
    conn.run(
      `INSERT INTO state.agent_versions (agent_id, organization_id, version, status, created_at, input_schema, output_schema, workflow) VALUES ($1, $2, $3, 'draft', now(), $4, $5, $6)`,
      [agentId, String(r.org), Number(r.v) + 1, String(r.s), String(r.o), JSON.stringify({ steps })] as never,
    ),
  );
}

const visibilityStep = (id: string, extra: Json = {}) => ({
  id,
  method: 'POST',
  path: '/v2/reports/visibility',
  body: {
    category_id: '{{inputs.category_id}}',
    start_date: '{{inputs.start_date}}',
    end_date: '{{inputs.end_date}}',
    ...extra,
  },
});
const longWorkflow = Array.from({ length: 12 }, (_, i) =>
  visibilityStep(`step_${i}`, { group_by: ['model'], limit: 50 }),
);

beforeAll(async () => {
  engine = await openEngine({ data: sampleDir, threads: 1, connections: 3 });
  ids = await sampleIds(engine);
  agents = { ...(await agentIds(engine, ids.org)), foreign: (await agentIds(engine, ids.otherOrg)).snapshot };
});
afterAll(() => engine.close());

const org = () => engine.org(ids.org);
const inputs = () => ({ category_id: ids.category, ...window });
const start = (agent_id: string, body: unknown = { inputs: inputs() }) =>
  org().resources.createAgentRun({ params: { agent_id }, body });
async function finished(agent_id: string, run_id: string): Promise<Json> {
  await engine.runsSettled();
  return org().resources.agentRun({ params: { agent_id, run_id } });
}
const runCount = async () =>
  Number((await query(engine, sql`SELECT count(*)::INTEGER AS n FROM state.agent_runs`))[0]!.n);

describe('agents', () => {
  it('lists published agents by default, drafts on request, page by page', async () => {
    const published = (await org().resources.agents({})) as Json;
    expect(published.data.map((a: Json) => a.status)).toEqual(['published', 'published']);
    const all = (await org().resources.agents({ query: { statuses: 'published,draft' } })) as Json;
    expect(all.data.map((a: Json) => a.id).sort()).toEqual(Object.values(agents).slice(0, 3).sort());
    expect(all.pagination).toEqual({ limit: 20, next_cursor: null });
    const walked: Json[] = [];
    let cursor: string | undefined;
    do {
      const page = (await org().resources.agents({
        query: { statuses: ['draft', 'published'], limit: '1', ...(cursor ? { next_cursor: cursor } : {}) },
      })) as Json;
      walked.push(...page.data);
      cursor = page.pagination.next_cursor ?? undefined;
    } while (cursor);
    expect(walked).toEqual(all.data);
    expect(Object.keys(walked[0]!).sort()).toEqual([
      'created_at',
      'description',
      'id',
      'name',
      'organization_id',
      'status',
    ]);
  });

  it('runs the live version, never the draft; publishing makes the draft live', async () => {
    const live = (await org().resources.agent({ params: { agent_id: agents.snapshot } })) as Json;
    const draft = (await org().resources.agent({
      params: { agent_id: agents.snapshot },
      query: { version: 'draft' },
    })) as Json;
    expect([live.version, live.version_status, draft.version, draft.version_status]).toEqual([
      1,
      'published',
      2,
      'draft',
    ]);
    expect(live.schema.input.required).toEqual(['category_id', 'start_date', 'end_date']);

    const before = await start(agents.snapshot);
    const ran = await finished(agents.snapshot, before.id as string);
    expect([ran.status, ran.version, Object.keys(ran.outputs)]).toEqual(['succeeded', 1, ['visibility']]);
    expect(ran.outputs.visibility.data).toHaveLength(5);
    expect(ran.error).toBeNull();
    expect(ran.started_at <= ran.finished_at).toBe(true);

    const published = (await org().resources.publishAgent({ params: { agent_id: agents.snapshot } })) as Json;
    expect([published.version, published.version_status]).toEqual([2, 'published']);
    await expect(
      org().resources.agent({ params: { agent_id: agents.snapshot }, query: { version: 'draft' } }),
    ).rejects.toBeInstanceOf(NotFoundError);
    const again = (await org().resources.publishAgent({ params: { agent_id: agents.snapshot } })) as Json;
    expect(again.version).toBe(2);
    const superseded = await query(
      engine,
      sql`SELECT version, status FROM state.agent_versions WHERE agent_id = ${agents.snapshot} ORDER BY version`,
    );
    expect(superseded.map((v) => v.status)).toEqual(['superseded', 'published']);

    const after = await finished(agents.snapshot, (await start(agents.snapshot)).id as string);
    expect([after.status, after.version, Object.keys(after.outputs)]).toEqual([
      'succeeded',
      2,
      ['visibility', 'by_model'],
    ]);
  });

  it('refuses to run an agent that was never published (409, no run created), and runs it once published', async () => {
    const listed = (await org().resources.agents({ query: { statuses: 'draft' } })) as Json;
    expect(listed.data.map((a: Json) => a.id)).toEqual([agents.draftOnly]);
    await expect(org().resources.agent({ params: { agent_id: agents.draftOnly } })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    const count = await runCount();
    const refused = await start(agents.draftOnly).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConflictError);
    expect((refused as ConflictError).status).toBe(409);
    expect((refused as ConflictError).body()).toMatchObject({ code: 'agent_not_published' });
    expect(await runCount()).toBe(count);
    await org().resources.publishAgent({ params: { agent_id: agents.draftOnly } });
    const run = await finished(agents.draftOnly, (await start(agents.draftOnly)).id as string);
    expect(run.status).toBe('succeeded');
  });

  it('answers 202 with the queued run', async () => {
    const result = await org().call('POST', `/v1/agents/${agents.snapshot}/runs`, { body: { inputs: inputs() } });
    expect(result.kind === 'json' && result.status).toBe(202);
    const run = JSON.parse((result as { json: string }).json) as Json;
    expect(run).toMatchObject({ agent_id: agents.snapshot, status: 'queued', started_at: null });
    await engine.runsSettled();
  });

  it('validates inputs against the JSON Schema: a 422 names each input, and no run is created', async () => {
    const count = await runCount();
    const error = (await start(agents.snapshot, {
      inputs: { category_id: 7, start_date: '2026/10/01', colour: 'red' },
    }).catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    const byLoc = Object.fromEntries(error.detail.map((d) => [d.loc.join('.'), d.type]));
    expect(byLoc).toEqual({
      'body.inputs.end_date': 'missing',
      'body.inputs.colour': 'extra_forbidden',
      'body.inputs.category_id': 'string_type',
      'body.inputs.start_date': 'string_pattern_mismatch',
    });
    const noBody = (await org()
      .resources.createAgentRun({ params: { agent_id: agents.snapshot } })
      .catch((e: unknown) => e)) as ValidationError;
    expect(noBody.detail.map((d) => d.loc.join('.')).sort()).toEqual([
      'body.inputs.category_id',
      'body.inputs.end_date',
      'body.inputs.start_date',
    ]);
    const extra = (await start(agents.snapshot, { inputs: inputs(), mode: 'fast' }).catch(
      (e: unknown) => e,
    )) as ValidationError;
    expect(extra.detail).toEqual([
      { type: 'extra_forbidden', loc: ['body', 'mode'], msg: 'Extra inputs are not permitted', input: 'fast' },
    ]);
    expect(await runCount()).toBe(count);
  });

  it('fails a run at the failing step, keeping what earlier steps produced', async () => {
    const run = await start(agents.snapshot, { inputs: { ...inputs(), category_id: ids.foreignCategory } });
    const failed = await finished(agents.snapshot, run.id as string);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ step: 'visibility', status: 403, code: 'forbidden' });
    expect(failed.outputs).toEqual({});

    await addDraft(engine, agents.snapshot, [visibilityStep('first'), visibilityStep('second', { limit: 0 })]);
    await org().resources.publishAgent({ params: { agent_id: agents.snapshot } });
    const second = await finished(agents.snapshot, (await start(agents.snapshot)).id as string);
    expect(second.status).toBe('failed');
    expect(Object.keys(second.outputs)).toEqual(['first']);
    expect(second.error).toMatchObject({
      step: 'second',
      status: 422,
      code: 'validation_error',
      detail: [{ loc: ['body', 'limit'], type: 'greater_than_equal' }],
    });
  });

  it('skips a run with nothing to do, and refuses steps that are not reports or reads', async () => {
    await addDraft(engine, agents.digest, []);
    await org().resources.publishAgent({ params: { agent_id: agents.digest } });
    const skipped = await finished(
      agents.digest,
      (await start(agents.digest, { inputs: { domain: 'acme.com', start_date: '2026-10-01' } })).id as string,
    );
    expect([skipped.status, skipped.outputs, skipped.error]).toEqual(['skipped', {}, null]);

    await addDraft(engine, agents.digest, [
      { id: 'recurse', method: 'POST', path: `/v1/agents/${agents.digest}/runs`, body: {} },
    ]);
    await org().resources.publishAgent({ params: { agent_id: agents.digest } });
    const refused = await finished(
      agents.digest,
      (await start(agents.digest, { inputs: { domain: 'acme.com', start_date: '2026-10-01' } })).id as string,
    );
    expect(refused.status).toBe('failed');
    expect(refused.error).toMatchObject({ step: 'recurse', code: 'step_not_allowed' });
  });

  it('keeps agents and runs to their organization: 403 for another’s, 404 for none’s', async () => {
    const run = await start(agents.snapshot);
    await engine.runsSettled();
    const unknown = '0f0f0f0f-0000-4000-8000-000000000000';
    for (const call of [
      () => org().resources.agent({ params: { agent_id: agents.foreign } }),
      () => org().resources.publishAgent({ params: { agent_id: agents.foreign } }),
      () => start(agents.foreign),
      () => org().resources.agentRun({ params: { agent_id: agents.foreign, run_id: run.id as string } }),
      () =>
        engine
          .org(ids.otherOrg)
          .resources.agentRun({ params: { agent_id: agents.snapshot, run_id: run.id as string } }),
    ]) {
      await expect(call()).rejects.toBeInstanceOf(ForbiddenError);
    }
    for (const call of [
      () => org().resources.agent({ params: { agent_id: unknown } }),
      () => start(unknown),
      () => org().resources.agentRun({ params: { agent_id: agents.snapshot, run_id: unknown } }),
      () => org().resources.agentRun({ params: { agent_id: agents.draftOnly, run_id: run.id as string } }),
    ]) {
      await expect(call()).rejects.toBeInstanceOf(NotFoundError);
    }
    const bad = (await org()
      .resources.agent({ params: { agent_id: 'nope' }, query: { version: 'latest' } })
      .catch((e: unknown) => e)) as ValidationError;
    expect(bad.detail[0]).toMatchObject({ loc: ['path', 'agent_id'], type: 'uuid_parsing' });
  });
});

describe('agent runs across restarts', () => {
  async function prepared(file: string) {
    const e = await openEngine({ data: sampleDir, state: file, threads: 1, connections: 3 });
    await addDraft(e, agents.snapshot, longWorkflow);
    await e.org(ids.org).resources.publishAgent({ params: { agent_id: agents.snapshot } });
    return e;
  }

  async function rawRun(file: string, id: string): Promise<Json> {
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    try {
      await conn.run(`ATTACH ${pathLiteral(file)} AS s (READ_ONLY)`);
      const rows = (
        await conn.runAndReadAll(`SELECT status, started_at, outputs FROM s.agent_runs WHERE id = $1`, [id] as never)
      ).getRowObjectsJS();
      return rows[0] as Json;
    } finally {
      conn.closeSync();
      db.closeSync();
    }
  }

  it('closing the engine mid-run puts the run back in the queue; the next open finishes it', async () => {
    const file = join(await tempDir(), 'state.duckdb');
    const first = await prepared(file);
    const run = await first
      .org(ids.org)
      .resources.createAgentRun({ params: { agent_id: agents.snapshot }, body: { inputs: inputs() } });
    for (;;) {
      const now = await first
        .org(ids.org)
        .resources.agentRun({ params: { agent_id: agents.snapshot, run_id: run.id as string } });
      if (now.status !== 'queued') break;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await first.close();
    expect(await rawRun(file, run.id as string)).toEqual({ status: 'queued', started_at: null, outputs: '{}' });

    const second = await openEngine({ data: sampleDir, state: file, threads: 1, connections: 3 });
    try {
      await second.runsSettled();
      const done = await second
        .org(ids.org)
        .resources.agentRun({ params: { agent_id: agents.snapshot, run_id: run.id as string } });
      expect(done.status).toBe('succeeded');
      expect(Object.keys(done.outputs as object)).toHaveLength(longWorkflow.length);
    } finally {
      await second.close();
    }
  });

  it('a run cut off by a crash (SIGKILL) is failed, not left running, when the store is opened again', async () => {
    const file = join(await tempDir(), 'state.duckdb');
    await (await prepared(file)).close();
    const child = startChild(['run', file, ids.org, agents.snapshot, JSON.stringify(inputs())]);
    const created = await child.waitFor((l) => l.startsWith('created '));
    expect(await child.waitFor((l) => l === 'running' || l.startsWith('finished'))).toBe('running');
    await child.kill();
    const runId = created.split(' ')[1]!;
    expect((await rawRun(file, runId)).status).toBe('running');

    const reopened = await openEngine({ data: sampleDir, state: file, threads: 1, connections: 3 });
    try {
      const run = await reopened
        .org(ids.org)
        .resources.agentRun({ params: { agent_id: agents.snapshot, run_id: runId } });
      expect(run.status).toBe('failed');
      expect(run.error).toMatchObject({ code: 'interrupted' });
      expect(run.started_at).not.toBeNull();
      expect(run.finished_at).not.toBeNull();
      const next = await reopened
        .org(ids.org)
        .resources.createAgentRun({ params: { agent_id: agents.snapshot }, body: { inputs: inputs() } });
      await reopened.runsSettled();
      expect(
        (
          await reopened
            .org(ids.org)
            .resources.agentRun({ params: { agent_id: agents.snapshot, run_id: next.id as string } })
        ).status,
      ).toBe('succeeded');
    } finally {
      await reopened.close();
    }
  });

  it('after a SIGKILL at a random moment of a run, the reopened store finishes or fails it, never leaves it queued or running', async () => {
    const trials = Number(process.env.AEA_CRASH_TRIALS ?? 2);
    const outcomes: Record<string, number> = {};
    for (let trial = 0; trial < trials; trial++) {
      const file = join(await tempDir(), `trial-${trial}.duckdb`);
      await (await prepared(file)).close();
      const child = startChild(['run', file, ids.org, agents.snapshot, JSON.stringify(inputs())]);
      const runId = (await child.waitFor((l) => l.startsWith('created '))).split(' ')[1]!;
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 400)));
      await child.kill();
      const reopened = await openEngine({ data: sampleDir, state: file, threads: 1, connections: 3 });
      try {
        await reopened.runsSettled();
        const run = await reopened
          .org(ids.org)
          .resources.agentRun({ params: { agent_id: agents.snapshot, run_id: runId } });
        expect(['succeeded', 'failed']).toContain(run.status);
        if (run.status === 'failed') expect(run.error).toMatchObject({ code: 'interrupted' });
        outcomes[String(run.status)] = (outcomes[String(run.status)] ?? 0) + 1;
      } finally {
        await reopened.close();
      }
    }
    expect(Object.values(outcomes).reduce((a, b) => a + b, 0)).toBe(trials);
  });
});
