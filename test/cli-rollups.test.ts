import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sampleDir } from '../src/generate/sample.ts';
import { openEngine } from '../src/open-engine.ts';
import { visibilityDaily } from '../src/reports/insights/visibility-rollup.ts';
import { aea } from './helpers/cli.ts';
import { splitLastDay } from './helpers/split-day.ts';
import { tempDir } from './helpers/tmp.ts';

let base: string;
let day: string;
let org: string;
let category: string;

beforeAll(async () => {
  const dir = await tempDir('aea-cli-rollups-');
  base = join(dir, 'base');
  day = join(dir, 'day');
  await splitLastDay(sampleDir, base, day);
  const engine = await openEngine({ data: base, rollups: false });
  try {
    const [first] = await engine.listOrganizations();
    [org, category] = [first!.id, first!.categories[0]!.id];
  } finally {
    await engine.close();
  }
});

/** One `aea query` of a 30-day visibility page by date × model. */
const visibility = (...extra: string[]) =>
  aea([
    'query',
    '/v2/reports/visibility',
    '--data',
    base,
    '--org',
    org,
    '--body',
    JSON.stringify({
      category_id: category,
      start_date: '2026-10-01',
      end_date: '2026-10-30',
      group_by: ['date', 'model'],
    }),
    ...extra,
  ]);

type Status = { store: string; bytes: number; stored: { rollup: string; state: string }[]; missing: unknown[] };
const status = async () => JSON.parse((await aea(['rollups', 'status', '--data', base, '--json'])).stdout) as Status;

describe('aea rollups and aea append', () => {
  it('build stores every rollup with progress; a second build reads them; append then build refreshes them; drop removes the store', async () => {
    const before = await status();
    expect(before.stored).toEqual([]);
    expect(before.missing.length).toBeGreaterThan(10);
    expect(before.store).toBe(`${base}.rollups`);
    const total = before.missing.length;

    const built = await aea(['rollups', 'build', '--data', base]);
    expect(built.code).toBe(0);
    expect(built.stderr).toContain(`[1/${total}] visibility_daily `);
    expect(built.stderr).toMatch(/: built in [0-9.]+ s/);
    expect(built.stderr).toContain(`[${total}/${total}] traffic_daily `);
    expect(built.stdout).toContain(`${total} rollups current`);
    expect(built.stdout).toContain(`${total} built, 0 refreshed, 0 current as stored`);
    const stored = await status();
    expect(stored.missing).toEqual([]);
    expect(stored.stored.map((s) => s.state)).toEqual(Array(total).fill('current'));
    expect(stored.bytes).toBeGreaterThan(0);

    expect((await aea(['rollups', 'build', '--data', base])).stdout).toContain(
      `0 built, 0 refreshed, ${total} current as stored`,
    );

    const appended = await aea(['append', '--data', base, '--from', day]);
    expect(appended.code).toBe(0);
    expect(JSON.parse(appended.stdout).map((p: { table: string }) => p.table)).toContain('bot_events');
    expect((await aea(['check', base])).stdout).toContain('no problems');
    expect(new Set((await status()).stored.map((s) => s.state))).toEqual(new Set(['appended']));
    expect((await aea(['rollups', 'build', '--data', base])).stdout).toContain(
      `0 built, ${total} refreshed, 0 current as stored`,
    );
    expect(new Set((await status()).stored.map((s) => s.state))).toEqual(new Set(['current']));

    const text = await aea(['rollups', 'status', '--data', base]);
    expect(text.stdout).toMatch(new RegExp(`${total} of ${total} rollups stored and current`));

    // `aea query` reads the stored rollups in place (base and segment), and answers as the facts do.
    const chosen = async () => JSON.parse((await visibility('--explain')).stdout).explain.rollups.chosen as string[];
    expect(await chosen()).toContain(visibilityDaily.name);
    const fromRollup = await visibility();
    expect(fromRollup.code).toBe(0);

    const dropped = await aea(['rollups', 'drop', '--data', base]);
    expect(dropped.stdout).toContain(`removed ${base}.rollups`);
    expect(existsSync(`${base}.rollups`)).toBe(false);
    expect((await status()).stored).toEqual([]);
    expect(await chosen()).toEqual([]);
    expect((await visibility()).stdout).toBe(fromRollup.stdout);
  }, 300_000);

  it('refuses an unknown action and a table that is not a fact table, naming it', async () => {
    const wrong = await aea(['rollups', 'rebuild', '--data', base]);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain('aea rollups build|status|drop');
    const dimension = await aea(['append', '--data', base, '--from', sampleDir]);
    expect(dimension.code).not.toBe(0);
    expect(dimension.stderr).toMatch(/only tables ordered by time .* "\w+" is not one/);
  });
});
