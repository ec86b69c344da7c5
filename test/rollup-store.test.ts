import { statSync, readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RollupStore, storedRows, verdictOf, type RollupKey, type StoredRollup } from '../src/engine/rollup-store.ts';
import { tempDir } from './helpers/tmp.ts';

const key = (files: Record<string, string[]>): RollupKey => ({
  engine: 'e',
  definition: 'd',
  scope: 'cat-1',
  prompts: 'p',
  files,
});

/** A base of table `t` (bytes stand in for Parquet: the store only sizes and hashes them), then segments for days added. */
async function stored(dir: string, days: number, limit = Infinity): Promise<RollupStore> {
  const store = new RollupStore(dir, limit);
  const base = await store.begin();
  await writeFile(base.fileOf('t'), 'base rows');
  await base.commit(key({ facts: ['f0'] }), 'r', { t: 10 });
  for (let day = 1; day <= days; day++) {
    const after = (await store.read('r', 'cat-1'))!;
    const pending = await store.begin(after);
    await writeFile(pending.fileOf('t'), `day ${day} rows`);
    await pending.commitSegment(after, key({ facts: ['f0', ...Array.from({ length: day }, (_, i) => `f${i + 1}`)] }), {
      from: `2026-01-0${day} 00:00:00.000000`,
      to: `2026-01-0${day + 2} 00:00:00.000000`,
      added: { facts: [`f${day}`] },
      rows: { t: 2 },
    });
  }
  return store;
}

describe('rollup store segments', () => {
  it('a segment keeps the stored files as hard links, names its own, and records its span, files and rows', async () => {
    const dir = await tempDir('aea-rollup-store-');
    const store = await stored(dir, 2);
    const meta = (await store.read('r', 'cat-1'))!;
    expect(meta.segments.map((s) => [s.from.slice(0, 10), s.added, s.tables.t!.file])).toEqual([
      ['2026-01-01', { facts: ['f1'] }, 't.1.parquet'],
      ['2026-01-02', { facts: ['f2'] }, 't.2.parquet'],
    ]);
    expect(storedRows(meta)).toBe(14);
    expect(verdictOf(meta, key({ facts: ['f0', 'f1', 'f2'] }))).toBe('current');
    expect(verdictOf(meta, key({ facts: ['f0', 'f1', 'f2', 'f3'] }))).toBe('appended');
    // A file a segment folded in, changed or gone: the whole rollup is stale.
    expect(verdictOf(meta, key({ facts: ['f0', 'f1', 'f2x'] }))).toBe('dataset');
    const [entry] = readdirSync(dir).filter((f) => !f.startsWith('.'));
    expect(readdirSync(join(dir, entry!)).sort()).toEqual(['rollup.json', 't.1.parquet', 't.2.parquet', 't.parquet']);
    expect(readdirSync(dir).filter((f) => f.startsWith('.'))).toEqual([]);
    expect(statSync(join(dir, entry!, 't.parquet')).nlink).toBe(1);
    const layers = store.layers(meta, 't');
    expect(
      layers.map((l) => [l.file.slice(dir.length + entry!.length + 2), l.rows, l.span?.from.slice(0, 10)]),
    ).toEqual([
      ['t.parquet', 10, undefined],
      ['t.1.parquet', 2, '2026-01-01'],
      ['t.2.parquet', 2, '2026-01-02'],
    ]);
    expect(await store.bytes()).toBe(
      ['t.parquet', 't.1.parquet', 't.2.parquet', 'rollup.json'].reduce(
        (n, f) => n + statSync(join(dir, entry!, f)).size,
        0,
      ),
    );
    const inodes = () => ['t.parquet', 't.1.parquet'].map((f) => statSync(join(dir, entry!, f)).ino);
    const before = inodes();
    const pending = await store.begin(meta);
    await writeFile(pending.fileOf('t'), 'day 3 rows');
    await pending.commitSegment(meta, key({ facts: ['f0', 'f1', 'f2', 'f3'] }), {
      from: '2026-01-03 00:00:00.000000',
      to: '2026-01-05 00:00:00.000000',
      added: { facts: ['f3'] },
      rows: { t: 2 },
    });
    expect(inodes()).toEqual(before);
  });

  it('a damaged segment drops it and every later one, and the record read names only the files folded before it', async () => {
    const dir = await tempDir('aea-rollup-store-');
    const store = await stored(dir, 3);
    const [entry] = readdirSync(dir).filter((f) => !f.startsWith('.'));
    await writeFile(join(dir, entry!, 't.2.parquet'), 'day 2 rowz');
    const meta = (await store.verified((await store.read('r', 'cat-1'))!, ['t']))!;
    expect(meta.segments).toHaveLength(1);
    expect(meta.files).toEqual({ facts: ['f0', 'f1'] });
    expect(verdictOf(meta, key({ facts: ['f0', 'f1', 'f2', 'f3'] }))).toBe('appended');
    // The next segment links only the files the record names: the damaged ones go with it.
    const pending = await store.begin(meta);
    await writeFile(pending.fileOf('t'), 'days 2 and 3 rows');
    await pending.commitSegment(meta, key({ facts: ['f0', 'f1', 'f2', 'f3'] }), {
      from: '2026-01-02 00:00:00.000000',
      to: '2026-01-05 00:00:00.000000',
      added: { facts: ['f2', 'f3'] },
      rows: { t: 3 },
    });
    expect(readdirSync(join(dir, entry!)).sort()).toEqual(['rollup.json', 't.1.parquet', 't.2.parquet', 't.parquet']);
    expect(await readFile(join(dir, entry!, 't.2.parquet'), 'utf8')).toBe('days 2 and 3 rows');
    const again = (await store.verified((await store.read('r', 'cat-1'))!, ['t']))!;
    expect(again.segments).toHaveLength(2);
    expect(storedRows(again)).toBe(15);
  });

  it('a damaged base removes the stored rollup; a record with a span that is not a timestamp is damaged', async () => {
    const dir = await tempDir('aea-rollup-store-');
    const store = await stored(dir, 1);
    const [entry] = readdirSync(dir).filter((f) => !f.startsWith('.'));
    await writeFile(join(dir, entry!, 't.parquet'), 'base rowz');
    expect(await store.verified((await store.read('r', 'cat-1'))!, ['t'])).toBeNull();
    expect(readdirSync(dir).filter((f) => !f.startsWith('.'))).toEqual([]);

    const other = await stored(await tempDir('aea-rollup-store-'), 1);
    const [folder] = readdirSync(other.dir);
    const record = join(other.dir, folder!, 'rollup.json');
    const meta = JSON.parse(await readFile(record, 'utf8')) as StoredRollup;
    await writeFile(
      record,
      JSON.stringify({ ...meta, segments: [{ ...meta.segments[0]!, to: "2026-01-03' OR true --" }] }),
    );
    expect(await other.read('r', 'cat-1')).toBeNull();
    expect(readdirSync(other.dir)).toEqual([]);
  });

  it('the bound counts every base and segment once: a segment past it is discarded and the stored rollup left as it was', async () => {
    const dir = await tempDir('aea-rollup-store-');
    const store = await stored(dir, 1);
    const used = await store.bytes();
    const bounded = new RollupStore(dir, used + 8);
    const after = (await bounded.read('r', 'cat-1'))!;
    const pending = await bounded.begin(after);
    await writeFile(pending.fileOf('t'), 'day 2 rows, more than eight bytes');
    await expect(
      pending.commitSegment(after, key({ facts: ['f0', 'f1', 'f2'] }), {
        from: '2026-01-02 00:00:00.000000',
        to: '2026-01-04 00:00:00.000000',
        added: { facts: ['f2'] },
        rows: { t: 2 },
      }),
    ).rejects.toThrow(/limit of/);
    expect(await store.bytes()).toBe(used);
    expect((await store.read('r', 'cat-1'))!.segments).toHaveLength(1);
  });
});
