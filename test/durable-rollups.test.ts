import { existsSync, readdirSync } from 'node:fs';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import type { RollupDef } from '../src/engine/rollups.ts';
import { sha256, type StoredRollup } from '../src/engine/rollup-store.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { appendParts } from '../src/import/append-parts.ts';
import { openEngine } from '../src/open-engine.ts';
import type { EngineOptions } from '../src/engine/engine-options.ts';
import { rollupCatalog } from '../src/reports/rollup-catalog.ts';
import { visibilityDaily } from '../src/reports/insights/visibility-rollup.ts';
import { citationsDaily } from '../src/reports/insights/citations-rollup.ts';
import { sql } from '../src/query/sql.ts';
import { query, sampleIds } from './helpers/sample-org.ts';
import { splitLastDay } from './helpers/split-day.ts';
import { tempDir } from './helpers/tmp.ts';
import { allPages } from './helpers/walk.ts';

type Body = Record<string, unknown>;
type Ids = Awaited<ReturnType<typeof sampleIds>> & { domain: string };

let dir: string;
let ids: Ids;

const open = (data: string, state: string | undefined, extra: Partial<EngineOptions> = {}) =>
  openEngine({ data, ...(state ? { state } : {}), cursorSecret: 'same', ...extra });

beforeAll(async () => {
  dir = await tempDir('aea-durable-');
  const engine = await open(sampleDir, undefined, { rollups: false });
  try {
    const base = await sampleIds(engine);
    ids = {
      ...base,
      domain: String(
        (
          await query(engine, sql`SELECT name FROM domains WHERE organization_id = ${base.org} ORDER BY name LIMIT 1`)
        )[0]!.name,
      ),
    };
  } finally {
    await engine.close();
  }
});

const scopesOf = (def: RollupDef) => (def.scope.kind === 'category' ? [ids.category, ids.sibling] : [ids.org]);

async function warmAll(engine: Engine): Promise<void> {
  for (const def of rollupCatalog) await engine.core.rollups.warm(def, scopesOf(def));
}

const allCurrent = (engine: Engine) =>
  rollupCatalog.every((def) => scopesOf(def).every((s) => engine.core.rollups.isCurrent(def, s)));

/** The last day of the sample is in every window but one, so an appended day is read. */
const windows = [
  ['2025-10-01', '2026-11-15'],
  ['2026-11-01', '2026-11-15'],
  ['2026-03-08', '2026-03-09'],
  ['2026-06-01', '2026-08-31'],
] as const;

const requestArb = () =>
  fc.record({
    kind: fc.constantFrom('visibility', 'citations', 'queryFanouts', 'shoppingProducts', 'referrals'),
    window: fc.constantFrom(...windows),
    groupBy: fc.subarray(['date', 'model', 'region']),
    interval: fc.constantFrom('day', 'week', 'month'),
    sibling: fc.boolean(),
  });

type Request = ReturnType<typeof requestArb> extends fc.Arbitrary<infer R> ? R : never;

/** Every page of the request's answer as JSON text: a rollup's answer must be the facts' to the byte. */
async function answerText(engine: Engine, r: Request): Promise<string> {
  const org = engine.org(ids.org);
  const window = { start_date: r.window[0], end_date: r.window[1] };
  if (r.kind === 'referrals')
    return JSON.stringify(
      await org.report('referrals')({
        domain: ids.domain,
        ...window,
        metrics: ['visits'],
        dimensions: ['date'],
        date_interval: r.interval,
      }),
    );
  const body: Body = {
    category_id: r.sibling ? ids.sibling : ids.category,
    ...window,
    ...(r.kind === 'visibility' ? { group_by: r.groupBy, interval: r.interval } : {}),
  };
  return JSON.stringify(await allPages(org, r.kind, body, 50));
}

const explainedRollups = async (engine: Engine, body: Body) =>
  (
    (await engine.org(ids.org).report('visibility')(body, { explain: true })) as {
      explain: { rollups: { chosen: string[] } };
    }
  ).explain.rollups.chosen;

/** `AEA_PROPERTY_RUNS=N` multiplies the runs of every property of this file by N / 10 (`npm test` runs them as written). */
const runsScale = Number(process.env.AEA_PROPERTY_RUNS ?? 0) > 0 ? Number(process.env.AEA_PROPERTY_RUNS) / 10 : 1;

async function sameAsFacts(withRollups: Engine, facts: Engine, runs: number): Promise<void> {
  const numRuns = Math.max(1, Math.round(runs * runsScale));
  await fc.assert(
    fc.asyncProperty(requestArb(), async (r) => {
      expect(await answerText(withRollups, r)).toBe(await answerText(facts, r));
    }),
    { numRuns },
  );
}

const storeOf = (state: string) => state.replace(/\.state\.duckdb$/, '.rollups');
const metaOf = async (store: string, def: RollupDef, scope: string) =>
  JSON.parse(
    await readFile(join(store, `${def.name}.${sha256(scope).slice(0, 20)}`, 'rollup.json'), 'utf8'),
  ) as StoredRollup;

/**
 * Every rollup table's rows as a count and the sum of each row's hash (every value of the row, to the
 * bit): a stored rollup read back must be a full build's. Summed in DuckDB, as reading every row out was
 * most of this file's time.
 */
async function rollupTexts(engine: Engine): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const def of rollupCatalog)
    for (const table of Object.keys(def.tables)) {
      const name = `rollup_${def.name}_${table}`;
      out[name] = await engine.core.pool.use(async (c) =>
        String(
          (
            await c.runAndReadAll(
              `SELECT count(*)::VARCHAR || ':' || coalesce(sum(hash(t)::HUGEINT), 0)::VARCHAR FROM "${name}" t`,
            )
          ).getRowsJS()[0]![0],
        ),
      );
    }
  return out;
}
const entryOf = (store: string, name: string) => readdirSync(store).filter((f) => f.startsWith(`${name}.`));

describe('durable rollups', () => {
  it('a restart reads every stored rollup instead of building it; answers are the facts’ to the byte and explain shows the rollup chosen', async () => {
    const state = join(dir, 'restart.state.duckdb');
    const first = await open(sampleDir, state);
    try {
      await warmAll(first);
      expect(first.core.rollups.counts.built).toBeGreaterThan(0);
    } finally {
      await first.close();
    }
    expect(readdirSync(storeOf(state)).filter((f) => f.startsWith('.'))).toEqual([]);
    const second = await open(sampleDir, state);
    const facts = await open(sampleDir, undefined, { rollups: false });
    try {
      await second.core.rollups.restored();
      expect(allCurrent(second)).toBe(true);
      expect(second.core.rollups.counts).toMatchObject({ built: 0, refreshed: 0 });
      expect(second.core.rollups.counts.loaded).toBeGreaterThanOrEqual(rollupCatalog.length);
      const body = {
        category_id: ids.category,
        start_date: '2026-01-01',
        end_date: '2026-11-15',
        group_by: ['date', 'model'],
      };
      expect(await explainedRollups(second, body)).toContain(visibilityDaily.name);
      expect(await explainedRollups(facts, body)).toEqual([]);
      await sameAsFacts(second, facts, 15);
      expect(second.core.rollups.counts.built).toBe(0);
    } finally {
      await Promise.all([second.close(), facts.close()]);
    }
  }, 180_000);

  it('a prompt edit makes only its category’s stored rollups stale: they are rebuilt, the sibling’s are read', async () => {
    const state = join(dir, 'edit.state.duckdb');
    const first = await open(sampleDir, state);
    try {
      await warmAll(first);
      await first.org(ids.org).call('PATCH', `/v1/org/categories/${ids.category}/prompts/status`, {
        body: {
          prompt_ids: [
            (
              await query(first, sql`SELECT id FROM prompts WHERE category_id = ${ids.category} ORDER BY id LIMIT 1`)
            )[0]!.id,
          ],
          status: 'deleted',
        },
      });
    } finally {
      await first.close();
    }
    const second = await open(sampleDir, state);
    try {
      await second.core.rollups.restored();
      expect(second.core.rollups.isCurrent(citationsDaily, ids.category)).toBe(false);
      expect(second.core.rollups.isCurrent(citationsDaily, ids.sibling)).toBe(true);
      const status = await second.core.rollups.storedStatus(rollupCatalog);
      expect(status.find((s) => s.rollup === citationsDaily.name && s.scope === ids.category)?.state).toBe('prompts');
      expect(status.find((s) => s.rollup === citationsDaily.name && s.scope === ids.sibling)?.state).toBe('current');
      const outcomes = await second.core.rollups.warm(citationsDaily, [ids.category, ids.sibling]);
      expect(outcomes).toEqual(['built', 'loaded']);
      await warmAll(second);
    } finally {
      await second.close();
    }
    const third = await open(sampleDir, state);
    let texts: string[];
    try {
      await third.core.rollups.restored();
      expect(allCurrent(third)).toBe(true);
      texts = await Promise.all(
        windows.map((w) =>
          answerText(third, { kind: 'citations', window: w, groupBy: [], interval: 'day', sibling: false }),
        ),
      );
    } finally {
      await third.close();
    }
    const factsOnly = await open(sampleDir, state, { rollups: false, rollupStore: false });
    try {
      expect(
        await Promise.all(
          windows.map((w) =>
            answerText(factsOnly, { kind: 'citations', window: w, groupBy: [], interval: 'day', sibling: false }),
          ),
        ),
      ).toEqual(texts);
    } finally {
      await factsOnly.close();
    }
  }, 180_000);

  it('a damaged stored file or record is ignored, removed and rebuilt; a write cut short is never read and is swept', async () => {
    const state = join(dir, 'damaged.state.duckdb');
    const store = storeOf(state);
    const first = await open(sampleDir, state);
    try {
      await warmAll(first);
    } finally {
      await first.close();
    }
    const [visibility] = entryOf(store, visibilityDaily.name).filter((f) =>
      existsSync(join(store, f, 'mentions.parquet')),
    );
    const mentions = join(store, visibility!, 'mentions.parquet');
    const bytes = await readFile(mentions);
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
    await writeFile(mentions, bytes);
    const [citations] = entryOf(store, citationsDaily.name);
    await writeFile(join(store, citations!, 'rollup.json'), '{"format": 1, "rollup": "citations_da');
    const crashed = join(store, '.pending-999999999-abcdef');
    await mkdir(crashed);
    await writeFile(join(crashed, 'rollup.json'), '{}');

    const second = await open(sampleDir, state);
    const facts = await open(sampleDir, undefined, { rollups: false });
    try {
      await second.core.rollups.restored();
      const damaged = [visibilityDaily, citationsDaily].map(
        (def) => scopesOf(def).filter((s) => !second.core.rollups.isCurrent(def, s)).length,
      );
      expect(damaged).toEqual([1, 1]);
      expect(second.core.rollups.counts.built).toBe(0);
      expect(existsSync(join(store, visibility!))).toBe(false);
      // A request answers from the facts meanwhile, then from the rebuilt rollup: the same bytes.
      await sameAsFacts(second, facts, 10);
      await second.core.rollups.settled();
      await warmAll(second);
      expect(allCurrent(second)).toBe(true);
      expect(existsSync(join(store, visibility!, 'mentions.parquet'))).toBe(true);
      expect(existsSync(crashed)).toBe(false);
      await sameAsFacts(second, facts, 10);
    } finally {
      await Promise.all([second.close(), facts.close()]);
    }
  }, 180_000);

  it('the store holds at most rollupStoreLimit bytes: past it a rollup answers from memory and nothing is left on disk', async () => {
    const state = join(dir, 'bounded.state.duckdb');
    const engine = await open(sampleDir, state, { rollupStoreLimit: 1 });
    try {
      await engine.core.rollups.warm(visibilityDaily, [ids.category]);
      expect(engine.core.rollups.isCurrent(visibilityDaily, ids.category)).toBe(true);
      expect(engine.core.rollups.lastStoreError).toMatch(/limit of 1 bytes/);
      expect(await engine.core.rollups.durable!.store.bytes()).toBe(0);
    } finally {
      await engine.close();
    }
  }, 180_000);

  it('each append is stored as a segment: base + segments read back equal a full build; a damaged segment is dropped and its days refreshed; past rollupSegments a refresh writes a new base', async () => {
    const mid = join(dir, 'segments-mid');
    const base = join(dir, 'segments');
    const [day1, day2] = [join(dir, 'segments-day1'), join(dir, 'segments-day2')];
    await splitLastDay(sampleDir, mid, day2);
    await splitLastDay(mid, base, day1);
    // X keeps up to 8 segments; Y one, so its second refresh compacts.
    const [x, y] = [join(dir, 'segments-x.rollups'), join(dir, 'segments-y.rollups')];
    const total = rollupCatalog.reduce((n, def) => n + scopesOf(def).length, 0);
    const scope = (def: RollupDef) => scopesOf(def)[0]!;
    const storeAll = async (store: string, extra: Partial<EngineOptions> = {}) => {
      const engine = await open(base, undefined, { rollupStore: store, restoreRollups: false, ...extra });
      try {
        for (const def of rollupCatalog) await engine.core.rollups.store(def, scopesOf(def));
        expect(engine.core.rollups.lastStoreError).toBeUndefined();
        return { ...engine.core.rollups.counts };
      } finally {
        await engine.close();
      }
    };
    expect(await storeAll(x)).toMatchObject({ built: total, refreshed: 0 });
    await cp(x, y, { recursive: true });

    // Refreshed without reading what is stored: only the days appended are folded, and stored as a segment.
    for (const day of [day1, day2]) {
      await appendParts(base, day);
      expect(await storeAll(x)).toMatchObject({ built: 0, refreshed: total, loaded: 0, kept: 0 });
      expect(await storeAll(y, { rollupSegments: 1 })).toMatchObject({ built: 0, refreshed: total, loaded: 0 });
    }
    for (const def of rollupCatalog) {
      expect((await metaOf(x, def, scope(def))).segments.length, def.name).toBe(2);
      expect((await metaOf(y, def, scope(def))).segments.length, def.name).toBe(0);
    }

    const built = await open(base, undefined, { rollupStore: false });
    const facts = await open(base, undefined, { rollups: false });
    try {
      await warmAll(built);
      const wanted = await rollupTexts(built);
      const reopened = async (store: string, counts: Record<string, number>) => {
        const engine = await open(base, undefined, { rollupStore: store });
        await engine.core.rollups.restored();
        expect(allCurrent(engine)).toBe(true);
        expect(engine.core.rollups.counts).toMatchObject(counts);
        expect(await rollupTexts(engine)).toEqual(wanted);
        return engine;
      };
      await (await reopened(x, { built: 0, refreshed: 0, loaded: total })).close();
      await (await reopened(y, { built: 0, refreshed: 0, loaded: total })).close();

      // Read in place, as `aea query` does: views over the base and segments hold a full build's rows,
      // and nothing is loaded or built.
      const inPlace = () => open(base, undefined, { rollupStore: x, rollups: 'stored' });
      const reader = await inPlace();
      try {
        expect(allCurrent(reader)).toBe(true);
        expect(reader.core.rollups.counts).toEqual({ loaded: 0, refreshed: 0, built: 0, kept: 0 });
        expect(await rollupTexts(reader)).toEqual(wanted);
        const body = {
          category_id: ids.category,
          start_date: '2026-11-01',
          end_date: '2026-11-15',
          group_by: ['date'],
        };
        expect(await explainedRollups(reader, body)).toContain(visibilityDaily.name);
        await sameAsFacts(reader, facts, 8);
        expect(reader.core.rollups.counts.built).toBe(0);
      } finally {
        await reader.close();
      }

      const folder = join(x, `${visibilityDaily.name}.${sha256(ids.category).slice(0, 20)}`);
      const segment = join(folder, 'mentions.1.parquet');
      const bytes = await readFile(segment);
      bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
      await writeFile(segment, bytes);
      // A reader in place leaves a damaged rollup out (its category reads the facts) and the store as it is.
      const files = readdirSync(folder).sort();
      const partial = await inPlace();
      try {
        expect(partial.core.rollups.isCurrent(visibilityDaily, ids.category)).toBe(false);
        expect(partial.core.rollups.isCurrent(visibilityDaily, ids.sibling)).toBe(true);
        await sameAsFacts(partial, facts, 4);
        expect(readdirSync(folder).sort()).toEqual(files);
      } finally {
        await partial.close();
      }
      // A restart reads the rest, refolds the dropped segments' days in memory and stores them as one segment.
      const repaired = await reopened(x, { built: 0, refreshed: 1, loaded: total - 1 });
      try {
        expect((await metaOf(x, visibilityDaily, ids.category)).segments.length).toBe(1);
        expect(
          readdirSync(folder)
            .filter((f) => f.startsWith('mentions.'))
            .sort(),
        ).toEqual(['mentions.1.parquet', 'mentions.parquet']);
        await sameAsFacts(repaired, facts, 8);
      } finally {
        await repaired.close();
      }
    } finally {
      await Promise.all([built.close(), facts.close()]);
    }
  }, 240_000);
});
