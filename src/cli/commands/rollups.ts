import { openEngine } from '../../open-engine.ts';
import type { Engine } from '../../library/engine.ts';
import { rollupStorePath } from '../../engine/open-core.ts';
import { RollupStore } from '../../engine/rollup-store.ts';
import { defaultRollupStoreBytes } from '../../limits.ts';
import { rollupCatalog } from '../../reports/rollup-catalog.ts';
import { defaultStatePath } from '../../state/default-path.ts';
import { parse, required, UsageError } from '../args.ts';
import type { CliIo } from '../io.ts';
import type { Command } from './command.ts';

const usage = `aea rollups build|status|drop --data DIR [--state FILE] [--store DIR] [--json]

  build    makes every rollup of every category and organization current on disk: kept as stored when
           it matches the dataset and the prompts (its files' hashes checked), refreshed when the dataset
           only gained files (aea append: the days they hold are refolded and stored as a segment), else
           built from the facts. Progress on stderr.
  status   lists the stored rollups and whether each is current (else why not: prompts, dataset,
           engine, definition; "appended": a day was appended, the next build or start refreshes it),
           and the rollups not stored.
  drop     removes the store (the next start reads the facts until rollups are built again).

  --data DIR     the dataset folder
  --state FILE   the state store whose prompts category rollups fold (default: <DIR>.state.duckdb)
  --store DIR    where rollups are kept (default: beside the state file, <DIR>.rollups)
  --json         status as JSON
Rollups are kept as zstd Parquet, one folder per rollup and scope (docs/decisions.md, "Durable rollups").`;

type Values = { readonly store?: unknown };

const storeOf = (values: Values, state: string) =>
  rollupStorePath({ state, ...(typeof values.store === 'string' ? { rollupStore: values.store } : {}) })!;

async function scopes(engine: Engine): Promise<{ category: string[]; organization: string[] }> {
  return engine.core.pool.use(async (conn) => {
    const ids = async (table: string) =>
      (await conn.runAndReadAll(`SELECT id FROM ${table} ORDER BY id`)).getRowsJS().map((r) => String(r[0]));
    return { category: await ids('categories'), organization: await ids('organizations') };
  });
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

async function build(engine: Engine, io: CliIo): Promise<void> {
  const ids = await scopes(engine);
  const jobs = rollupCatalog.flatMap((def) => ids[def.scope.kind].map((scope) => ({ def, scope })));
  const started = Date.now();
  const rollups = engine.core.rollups;
  io.err(`keeping every rollup current in ${rollups.durable?.store.dir ?? '(no store)'}\n`);
  for (const [i, { def, scope }] of jobs.entries()) {
    const t = Date.now();
    const [outcome] = await rollups.store(def, [scope]);
    io.err(
      `[${i + 1}/${jobs.length}] ${def.name} ${scope}: ${outcome === 'kept' ? 'current as stored' : outcome} in ${((Date.now() - t) / 1000).toFixed(2)} s\n`,
    );
  }
  const { built, refreshed, kept } = rollups.counts;
  const store = rollups.durable?.store;
  io.out(
    `${jobs.length} rollups current in ${((Date.now() - started) / 1000).toFixed(1)} s: ${built} built, ${refreshed} refreshed, ${kept} current as stored\n`,
  );
  if (store) io.out(`${store.dir} holds ${mb(await store.bytes())} (limit ${mb(store.limit)})\n`);
  if (rollups.lastStoreError) io.out(`not stored: ${rollups.lastStoreError}\n`);
}

async function status(engine: Engine, io: CliIo, json: boolean): Promise<void> {
  const stored = await engine.core.rollups.storedStatus(rollupCatalog);
  const ids = await scopes(engine);
  const have = new Set(stored.map((s) => `${s.rollup}|${s.scope}`));
  const missing = rollupCatalog.flatMap((def) =>
    ids[def.scope.kind]
      .filter((scope) => !have.has(`${def.name}|${scope}`))
      .map((scope) => ({ rollup: def.name, scope })),
  );
  const store = engine.core.rollups.durable?.store;
  if (json) {
    io.out(
      JSON.stringify(
        {
          store: store?.dir ?? null,
          bytes: store ? await store.bytes() : 0,
          limit: store?.limit ?? null,
          stored,
          missing,
        },
        null,
        2,
      ) + '\n',
    );
    return;
  }
  for (const s of stored)
    io.out(
      `${s.rollup ?? s.folder}\t${s.scope ?? '-'}\t${s.state}\t${s.rows} rows\t${mb(s.bytes)}\t${s.builtAt ?? '-'}\n`,
    );
  for (const m of missing) io.out(`${m.rollup}\t${m.scope}\tmissing\n`);
  const current = stored.filter((s) => s.state === 'current').length;
  io.out(
    `${current} of ${current + missing.length + stored.length - current} rollups stored and current; ${store ? `${store.dir} holds ${mb(await store.bytes())} (limit ${mb(store.limit)})` : 'no store'}\n`,
  );
}

export const rollups: Command = {
  usage,
  async run(argv, io) {
    const { values, positionals } = parse(argv, {
      data: { type: 'string' },
      state: { type: 'string' },
      store: { type: 'string' },
      json: { type: 'boolean' },
    });
    const [action] = positionals;
    if (action !== 'build' && action !== 'status' && action !== 'drop')
      throw new UsageError('aea rollups build|status|drop --data DIR (see aea rollups --help)');
    const data = required(values, 'data');
    const state = typeof values.state === 'string' ? values.state : defaultStatePath(data);
    const dir = storeOf(values, state);
    if (action === 'drop') {
      const store = new RollupStore(dir, defaultRollupStoreBytes);
      const bytes = await store.bytes();
      await store.drop();
      io.out(`removed ${dir} (${mb(bytes)})\n`);
      return 0;
    }
    const engine = await openEngine({
      data,
      state,
      stateWhenLocked: 'snapshot',
      rollupStore: dir,
      rollups: action === 'build',
      restoreRollups: false,
    });
    try {
      if (action === 'build') await build(engine, io);
      else await status(engine, io, values.json === true);
    } finally {
      await engine.close();
    }
    return 0;
  },
};
