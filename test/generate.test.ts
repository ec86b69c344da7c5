import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateDataset } from '../src/generate/generate.ts';
import type { Progress } from '../src/generate/progress.ts';
import { tableNames } from '../src/model/tables.ts';
import { tableFiles } from '../src/engine/dataset.ts';
import { openEngine } from '../src/open-engine.ts';
import { tempDir } from './helpers/tmp.ts';
import { checkDataset } from '../src/engine/dataset-check.ts';
import { DuckDBInstance, listValue } from '../src/engine/duckdb-api.ts';

async function fileDigests(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of tableNames) {
    for (const file of tableFiles(dir, table)) {
      out[file.slice(dir.length)] = createHash('sha256')
        .update(await readFile(file))
        .digest('hex');
    }
  }
  return out;
}

/** Seed 11 at scale 0.003, generated once for the tests that read it (by the first, with its progress, when it runs). */
let seed11: Promise<{ dir: string; rows: Record<string, number> }> | undefined;
const wholeSeed11 = () =>
  (seed11 ??= tempDir().then(async (root) => {
    const dir = join(root, 'whole');
    return { dir, rows: (await generateDataset({ out: dir, scale: 0.003, seed: 11 })).rows };
  }));

describe('generator', () => {
  it('gives identical files for the same seed and different tables for another seed', async () => {
    const root = await tempDir();
    const [a, b, c] = ['a', 'b', 'c'].map((d) => join(root, d));
    const reported = { estimates: [] as number[], rows: 0, steps: 0, stopped: false };
    const progress: Progress = {
      start: (n) => reported.estimates.push(n),
      estimate: (n) => reported.estimates.push(n),
      advance: (n, label) => {
        expect(label).not.toBe('');
        reported.rows += n;
        reported.steps++;
      },
      stop: () => (reported.stopped = true),
    };
    const generated = generateDataset({ out: a!, scale: 0.003, seed: 11, progress });
    seed11 ??= generated.then((r) => ({ dir: a!, rows: r.rows }));
    const ra = await generated;
    const rb = await generateDataset({ out: b!, scale: 0.003, seed: 11 });
    const rc = await generateDataset({ out: c!, scale: 0.003, seed: 12 });
    expect(rb.rows).toEqual(ra.rows);
    const da = await fileDigests(a!);
    expect(Object.keys(da).length).toBeGreaterThanOrEqual(tableNames.length);
    expect(await fileDigests(b!)).toEqual(da);
    const dc = await fileDigests(c!);
    const differing = Object.keys(da).filter((f) => dc[f] !== da[f]);
    expect(differing).toContain('/mentions/part-0000.parquet');
    expect(differing).toContain('/organizations.parquet');
    expect(ra.rows.executions).toBeGreaterThan(1000);
    for (const table of tableNames) expect(ra.rows[table], table).toBeGreaterThan(0);
    const total = Object.values(ra.rows).reduce((x, y) => x + y, 0);
    expect(reported.rows).toBe(total);
    expect(reported.stopped).toBe(true);
    // The second estimate comes from the executions drawn: within a fifth of what was written.
    expect(reported.estimates).toHaveLength(2);
    expect(Math.abs(reported.estimates[1]! - total) / total).toBeLessThan(0.2);
  }, 120_000);

  it('cuts categories and traffic into days without changing a row, every part sorted', async () => {
    const root = await tempDir();
    const cut = join(root, 'cut');
    const { dir: whole, rows } = await wholeSeed11();
    const rc = await generateDataset({ out: cut, scale: 0.003, seed: 11, slices: 3 });
    expect(rc.rows).toEqual(rows);
    expect(tableFiles(whole, 'citations')).toHaveLength(9);
    expect(tableFiles(cut, 'citations')).toHaveLength(27);
    expect(tableFiles(whole, 'bot_events')).toHaveLength(4);
    expect(tableFiles(cut, 'bot_events')).toHaveLength(24);
    expect(await checkDataset(cut)).toEqual([]);
    for (const slices of [0, 1.5, 412])
      await expect(generateDataset({ out: join(root, 'refused'), scale: 0.003, seed: 11, slices })).rejects.toThrow(
        `slices must be an integer in [1, 411] (the window's days), got ${slices}`,
      );
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    try {
      for (const table of tableNames) {
        const sql = `SELECT (SELECT count(*) FROM (FROM read_parquet($w) EXCEPT ALL FROM read_parquet($c))),
                            (SELECT count(*) FROM (FROM read_parquet($c) EXCEPT ALL FROM read_parquet($w)))`;
        const files = { w: listValue(tableFiles(whole, table)), c: listValue(tableFiles(cut, table)) };
        const [[onlyWhole, onlyCut]] = (await conn.runAndReadAll(sql, files)).getRowsJS() as [[bigint, bigint]];
        expect([Number(onlyWhole), Number(onlyCut)], table).toEqual([0, 0]);
      }
    } finally {
      conn.closeSync();
      db.closeSync();
    }
  }, 120_000);

  it('writes the shape the seed needs: DST days, every video source type, one shopping engine, distinct tenant names', async () => {
    const { sampleDir } = await import('../src/generate/sample.ts');
    const engine = await openEngine({ data: sampleDir });
    try {
      const rows = async (sql: string) => engine.core.pool.use(async (c) => (await c.runAndReadAll(sql)).getRowsJS());
      const dstDays = await rows(
        `SELECT DISTINCT day::VARCHAR FROM executions WHERE day IN ('2025-11-02', '2026-03-08', '2026-11-01') ORDER BY 1`,
      );
      expect(dstDays.map((r) => r[0])).toEqual(['2025-11-02', '2026-03-08', '2026-11-01']);
      const sourceTypes = await rows(
        `SELECT DISTINCT source_type FROM citations WHERE source_type IS NOT NULL ORDER BY 1`,
      );
      expect(sourceTypes.map((r) => r[0])).toEqual(['channel', 'other', 'playlist', 'short', 'video']);
      const shoppingModels = await rows(`SELECT count(DISTINCT model_id) FROM shopping_results`);
      expect(Number(shoppingModels[0]![0])).toBe(1);
      const [counts] =
        await rows(`SELECT (SELECT count(*) FROM models), (SELECT count(*) FROM regions), (SELECT count(*) FROM organizations),
        (SELECT count(*) FROM personas), (SELECT min(day) FROM executions)::VARCHAR, (SELECT max(day) FROM executions)::VARCHAR`);
      expect(Number(counts![0])).toBeGreaterThanOrEqual(6);
      expect(Number(counts![1])).toBeGreaterThanOrEqual(5);
      expect(Number(counts![2])).toBeGreaterThanOrEqual(3);
      expect(Number(counts![3])).toBeGreaterThan(0);
      expect(String(counts![4]) < '2025-11-01' && String(counts![5]) > '2026-11-01').toBe(true);
      const shared =
        await rows(`SELECT name FROM (SELECT name, organization_id FROM categories UNION ALL SELECT name, organization_id FROM assets
        UNION ALL SELECT name, id FROM organizations) GROUP BY name HAVING count(DISTINCT organization_id) > 1`);
      expect(shared).toEqual([]);
      const minute = await rows(`SELECT count(*) FROM bot_events WHERE second(ts) <> 0`);
      expect(Number(minute[0]![0])).toBe(0);
    } finally {
      engine.close();
    }
  });
});
