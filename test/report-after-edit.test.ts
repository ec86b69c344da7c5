import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import { type Engine } from '../src/library/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { sql } from '../src/query/sql.ts';
import { query, resetCategory, sampleIds } from './helpers/sample-org.ts';

type Json = Record<string, any>;

let engine: Engine;
let ids: Awaited<ReturnType<typeof sampleIds>>;
beforeAll(async () => {
  engine = await openEngine({ data: sampleDir, threads: 1, connections: 2 });
  ids = await sampleIds(engine);
});
afterAll(() => engine.close());

const org = () => engine.org(ids.org);
const visibility = (extra: Json) =>
  org().reports.visibility({
    category_id: ids.category,
    start_date: '2026-01-01',
    end_date: '2026-10-31',
    scope: 'all',
    limit: 50,
    ...extra,
  }) as Promise<{ info: Json; data: Json[] }>;
const patch = (prompts: Json[]) =>
  org().resources.updatePrompts({ params: { category_id: ids.category }, body: { prompts } });
const leaf = (field: string, op: string, value: unknown) => ({ filter: { field, op, value } });

/** A prompt with answers in the window, a tag it lacks, and the prompts that carry the tag. */
async function subject() {
  await resetCategory(engine, ids.category);
  const prompts = await query(
    engine,
    sql`SELECT id, topic_id, tag_ids FROM prompts WHERE category_id = ${ids.category} AND list_contains(analysis_types, 'visibility') ORDER BY id`,
  );
  const tags = await query(engine, sql`SELECT id, name FROM tags WHERE category_id = ${ids.category} ORDER BY id`);
  for (const p of prompts) {
    const tag = tags.find((t) => !(p.tag_ids as string[]).includes(String(t.id)));
    if (!tag || (await visibility(leaf('prompt', 'is', p.id))).data.length === 0) continue;
    const carriers = prompts.filter((q) => (q.tag_ids as string[]).includes(String(tag.id))).map((q) => String(q.id));
    return {
      prompt: String(p.id),
      topic: String(p.topic_id),
      tag: { id: String(tag.id), name: String(tag.name) },
      carriers,
    };
  }
  throw new Error('the sample has no prompt to edit');
}

describe('a report after a prompt edit', () => {
  it('counts a retagged prompt under its new tag', async () => {
    const s = await subject();
    const before = await visibility(leaf('tag', 'is', s.tag.name));
    await patch([
      {
        id: s.prompt,
        tags: [
          ...(await query(engine, sql`SELECT unnest(tag_ids) AS t FROM prompts WHERE id = ${s.prompt}`)).map(
            (r) => r.t,
          ),
          s.tag.id,
        ],
      },
    ]);
    const after = await visibility(leaf('tag', 'is', s.tag.name));
    expect(after.data).not.toEqual(before.data);
    expect(after.data).toEqual((await visibility(leaf('prompt', 'in', [...s.carriers, s.prompt]))).data);
  });

  it('shows a renamed topic under its new name, and a prompt moved to a new topic under that topic', async () => {
    const s = await subject();
    await patch([{ id: s.prompt, topic: { id: s.topic, name: 'Renamed by a test' } }]);
    const renamed = await visibility(leaf('topic', 'is', 'Renamed by a test'));
    expect(renamed.data.length).toBeGreaterThan(0);
    expect(renamed.data).toEqual((await visibility(leaf('topic', 'is', s.topic))).data);
    const grouped = await visibility({ group_by: ['topic'], limit: 50 });
    expect(grouped.data.some((r) => r.topic.id === s.topic && r.topic.name === 'Renamed by a test')).toBe(true);

    await patch([{ id: s.prompt, topic: 'A topic of its own' }]);
    const moved = await visibility(leaf('topic', 'is', 'A topic of its own'));
    expect(moved.data.length).toBeGreaterThan(0);
    expect(moved.data).toEqual((await visibility(leaf('prompt', 'is', s.prompt))).data);
  });

  it('keeps a disabled prompt’s history and drops a deleted prompt’s', async () => {
    const s = await subject();
    const status = (status: string) =>
      org().resources.updatePromptStatus({
        params: { category_id: ids.category },
        body: { prompt_ids: [s.prompt], status },
      });
    const history = await visibility(leaf('prompt', 'is', s.prompt));
    expect(await status('disabled')).toEqual({ dry_run: false, updated_prompts: 1 });
    expect(await status('disabled')).toEqual({ dry_run: false, updated_prompts: 0 });
    expect((await visibility(leaf('prompt', 'is', s.prompt))).data).toEqual(history.data);
    await status('deleted');
    expect((await visibility(leaf('prompt', 'is', s.prompt))).data).toEqual([]);
    const listed = (
      await org().resources.prompts({
        params: { category_id: ids.category },
        query: { status: 'active,disabled', limit: '1000' },
      })
    ).data as Json[];
    expect(listed.map((p) => p.id)).not.toContain(s.prompt);
  });
});
