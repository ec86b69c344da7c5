import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { defaultStatePath } from '../src/state/default-path.ts';
import { aea, aeaInProcess } from './helpers/cli.ts';
import { sampleIds } from './helpers/sample-org.ts';
import { tempDir } from './helpers/tmp.ts';

let ids: Awaited<ReturnType<typeof sampleIds>>;
let prompt: string;
let agent: string;
let draftOnly: string;
beforeAll(async () => {
  const engine = await openEngine({ data: sampleDir, threads: 1, connections: 1 });
  ids = await sampleIds(engine);
  const listed = (await engine.org(ids.org).resources.prompts({ params: { category_id: ids.category } })).data as {
    id: string;
  }[];
  prompt = listed[0]!.id;
  const agents = (await engine.org(ids.org).resources.agents({ query: { statuses: 'published,draft' } })).data as {
    id: string;
    name: string;
    status: string;
  }[];
  agent = agents.find((a) => a.name.endsWith('visibility snapshot'))!.id;
  draftOnly = agents.find((a) => a.status === 'draft')!.id;
  await engine.close();
});

/** Runs `aea query` in this process (the same entry point the binary runs) and parses what it prints. */
async function inProcess(args: string[]): Promise<{ code: number; json: any }> {
  const { code, stdout } = await aeaInProcess(['query', ...args]);
  return { code, json: JSON.parse(stdout) };
}

describe('aea query on org resources and agents', () => {
  it('defaults the state store to <data dir>.state.duckdb', () => {
    expect(defaultStatePath('data/sample')).toBe('data/sample.state.duckdb');
    expect(defaultStatePath('/srv/exports/acme/')).toBe('/srv/exports/acme.state.duckdb');
  });

  it('edits prompts durably in --state FILE and reads them back with a query string', async () => {
    const state = join(await tempDir(), 'cli.state.duckdb');
    const base = ['--data', sampleDir, '--org', ids.org, '--state', state];
    const body = JSON.stringify({ prompts: [{ id: prompt, prompt: 'Edited from the CLI', tags: ['cli tag'] }] });
    const patched = await aea([
      'query',
      `/v1/org/categories/${ids.category}/prompts`,
      '--method',
      'PATCH',
      '--body',
      body,
      ...base,
    ]);
    expect(patched.stderr).toBe('');
    expect(patched.code).toBe(0);
    expect(JSON.parse(patched.stdout)).toMatchObject({ dry_run: false, updated: 1, tags_created: 1 });

    const listed = await inProcess([
      `/v1/org/categories/${ids.category}/prompts?status=active%2Cdisabled&limit=1000`,
      ...base,
    ]);
    expect(listed.code).toBe(0);
    const edited = listed.json.data.find((p: { id: string }) => p.id === prompt);
    expect(edited).toMatchObject({ prompt: 'Edited from the CLI', tags: [{ name: 'cli tag' }] });

    const bad = await inProcess([`/v1/content/${ids.ownedAsset}/optimization?limit=50001`, ...base]);
    expect([bad.code, bad.json.detail[0].loc]).toEqual([2, ['query', 'limit']]);
    const foreign = await inProcess([`/v1/org/categories/${ids.foreignCategory}/topics`, ...base]);
    expect([foreign.code, foreign.json.code]).toEqual([3, 'forbidden']);
  });

  it('starts an agent run, which finishes before the command exits; a never-published agent exits 1 with 409’s body', async () => {
    const state = join(await tempDir(), 'runs.state.duckdb');
    const base = ['--data', sampleDir, '--org', ids.org, '--state', state];
    const inputs = { category_id: ids.category, start_date: '2026-10-01', end_date: '2026-10-31' };
    const created = await inProcess([`/v1/agents/${agent}/runs`, '--body', JSON.stringify({ inputs }), ...base]);
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({ status: 'queued', agent_id: agent });
    const run = await inProcess([`/v1/agents/${agent}/runs/${created.json.id}`, ...base]);
    expect(run.json.status).toBe('succeeded');
    const refused = await inProcess([`/v1/agents/${draftOnly}/runs`, '--body', '{}', ...base]);
    expect([refused.code, refused.json.code]).toEqual([1, 'agent_not_published']);
  });

  it('reads without --state from the default file beside the dataset', async () => {
    const models = await inProcess(['/v1/org/models', '--data', sampleDir, '--org', ids.org]);
    expect([models.code, models.json.length]).toEqual([0, 8]);
    expect(existsSync(defaultStatePath(sampleDir))).toBe(true);
  });
});
