import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { sql } from '../src/query/sql.ts';
import { startChild } from './helpers/child.ts';
import { query, sampleIds } from './helpers/sample-org.ts';
import { tempDir } from './helpers/tmp.ts';

/** A few trials in the suite; `AEA_CRASH_TRIALS=200` makes a soak run. */
const trials = Number(process.env.AEA_CRASH_TRIALS ?? 3);

describe('kill during write', () => {
  it('after a SIGKILL at a random point of a stream of PATCH batches, the reopened store holds whole batches only, and every acknowledged one', async () => {
    const dir = await tempDir();
    const template = join(dir, 'template.duckdb');
    const probe = await openEngine({ data: sampleDir, state: template, threads: 1, connections: 1 });
    const ids = await sampleIds(probe);
    await probe.close();
    const trial = async (n: number) => {
      const state = join(dir, `trial-${n}.duckdb`);
      copyFileSync(template, state);
      const child = startChild(['patch', state, ids.org, ids.category]);
      await child.waitFor((l) => l === 'committed 1');
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 150));
      await child.kill();
      const acknowledged = Math.max(
        ...child.lines.filter((l) => l.startsWith('committed ')).map((l) => Number(l.split(' ')[1])),
      );

      const engine = await openEngine({ data: sampleDir, state, threads: 1, connections: 2 });
      try {
        const prompts = await query(
          engine,
          sql`SELECT prompt, tag_ids, topic_id FROM prompts WHERE category_id = ${ids.category}`,
        );
        const batches = new Set(prompts.map((p) => String(p.prompt)));
        expect(batches.size, `trial ${n}: prompts from different batches`).toBe(1);
        const k = Number([...batches][0]!.replace('batch ', ''));
        expect(k).toBeGreaterThanOrEqual(acknowledged);
        expect(k).toBeLessThanOrEqual(acknowledged + 1);
        const tags = await query(
          engine,
          sql`SELECT id, name FROM tags WHERE category_id = ${ids.category} AND name LIKE 'crash tag %' ORDER BY name`,
        );
        const topics = await query(
          engine,
          sql`SELECT id, name FROM topics WHERE category_id = ${ids.category} AND name LIKE 'crash topic %'`,
        );
        expect(tags.length).toBe(k);
        expect(topics.length).toBe(k);
        const tagK = tags.find((t) => t.name === `crash tag ${k}`)!;
        const topicK = topics.find((t) => t.name === `crash topic ${k}`)!;
        for (const p of prompts) {
          expect(p.tag_ids).toEqual([tagK.id]);
          expect(p.topic_id).toBe(topicK.id);
        }
      } finally {
        await engine.close();
      }
    };
    for (let n = 0; n < trials; n++) await trial(n);
  });
});
