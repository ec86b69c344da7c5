import { removeTempSync, tempFolderSync } from '../../engine/temp-paths.ts';
import { contractCatalog } from '../../cluster/catalog.ts';
import { datasetSource } from '../../cluster/dataset-source.ts';
import { loadDataset } from '../../cluster/load.ts';
import { openTarget } from '../../cluster/load-target.ts';
import { schemaStatements } from '../../cluster/schema-ddl.ts';
import { fillEmptyRollups } from '../../cluster/rollup-ddl.ts';
import { clickhouseRollups } from '../../reports/clickhouse-rollups.ts';
import { parseTargetUrl, type TargetUrl } from '../../cluster/target-url.ts';
import { findTableFiles, missingTableMessage } from '../../engine/dataset.ts';
import { DatasetError } from '../../errors.ts';
import { openEngine } from '../../open-engine.ts';
import { parse, UsageError } from '../args.ts';
import type { CliIo } from '../io.ts';
import type { Command } from './command.ts';

const usage = `aea clickhouse schema DIR --url URL [--cluster NAME] [--database DB] [--print]
aea clickhouse load DIR --url URL [--cluster NAME] [--database DB]

Puts the dataset folder DIR on ClickHouse for --backend clickhouse (see docs/scale-out.md).
  schema   creates every table the reports read (CREATE … IF NOT EXISTS): the contract's tables, the
           state store's derived kb_sections and claim_evidence, the request_log view, and the rollups
           (a store, a materialized view feeding it from the facts, a view the reports read); on one
           server, an empty store beside loaded facts is filled from them
  load     creates them, loads each table's Parquet files (progress on stderr), and checks every
           table's rows on the target against the dataset's; a table that already holds rows is
           refused before any row is loaded

  --url URL        http(s)://user:password@host:8123[/database]: a ClickHouse server, 24.3 or later
                   (an older one is refused); or chdb:PATH[?database=DB]: a chdb data directory,
                   which --backend clickhouse --clickhouse-url chdb:PATH then reads
  --database DB    the database to create the tables in (default: the URL's, else default)
  --cluster NAME   a cluster of the servers' remote_servers: facts as <table>_local MergeTree tables
                   ON CLUSTER plus a Distributed table sharded by cityHash64(organization_id), small
                   tables replicated whole to every node (ReplicatedMergeTree; needs Keeper and the
                   {replica} macro)
  --print          schema only: print the statements instead of running them (--url optional)
Names given to --database and --cluster must be plain identifiers (exit 2 otherwise).`;

const options = {
  url: { type: 'string' },
  cluster: { type: 'string' },
  database: { type: 'string' },
  print: { type: 'boolean' },
} as const;

interface Values {
  readonly url?: string;
  readonly cluster?: string;
  readonly database?: string;
  readonly print?: boolean;
}

function datasetDir(dir: string | undefined): string {
  if (!dir) throw new UsageError('DIR is required: the dataset folder to put on ClickHouse');
  if (!findTableFiles(dir, 'organizations')) throw new DatasetError(missingTableMessage(dir, 'organizations'));
  return dir;
}

function targetOf(url: string | undefined, database: string | undefined, cluster: string | undefined): TargetUrl {
  if (!url) throw new UsageError('--url is required: http(s)://host:8123[/database] or chdb:PATH');
  const target = parseTargetUrl(url, database);
  if (target.kind === 'chdb' && cluster)
    throw new UsageError('--cluster needs a ClickHouse server: chdb has no cluster');
  return target;
}

async function schema(dir: string, values: Values, io: CliIo): Promise<number> {
  const { cluster, database } = values;
  if (values.print) {
    const db = values.url ? targetOf(values.url, database, cluster).database : (database ?? 'default');
    for (const s of schemaStatements(contractCatalog(), { database: db, cluster, rollups: clickhouseRollups }))
      io.out(`${s};\n`);
    return 0;
  }
  const target = targetOf(values.url, database, cluster);
  const statements = schemaStatements(contractCatalog(), {
    database: target.database,
    cluster,
    rollups: clickhouseRollups,
  });
  const open = await openTarget(target, cluster);
  let filled: string[] = [];
  try {
    for (const s of statements) await open.execute(s);
    if (!cluster) filled = await fillEmptyRollups(clickhouseRollups, target.database, open);
  } finally {
    await open.close();
  }
  io.err(`${statements.length} statements run: the tables of ${dir} exist in ${target.database}\n`);
  if (filled.length > 0)
    io.err(`${filled.length} rollup stores filled from the facts already loaded: ${filled.join(', ')}\n`);
  return 0;
}

async function load(dir: string, values: Values, io: CliIo): Promise<number> {
  if (values.print) throw new UsageError('--print goes with schema');
  const { cluster } = values;
  const target = targetOf(values.url, values.database, cluster);
  // The engine opens the folder as any command does, so a dataset it would refuse is refused here too.
  const engine = await openEngine({ data: dir, rollups: false });
  const scratch = tempFolderSync('load');
  try {
    const open = await openTarget(target, cluster);
    try {
      const source = datasetSource(dir, engine.core.pool, scratch);
      await loadDataset(contractCatalog(), source, open, {
        database: target.database,
        cluster,
        rollups: clickhouseRollups,
        progress: (line) => io.err(`${line}\n`),
      });
    } finally {
      await open.close();
    }
  } finally {
    removeTempSync(scratch);
    await engine.close();
  }
  io.out(`loaded ${dir} into ${target.database}: every table's rows match the dataset's\n`);
  return 0;
}

export const clickhouse: Command = {
  usage,
  async run(argv, io) {
    const { values, positionals } = parse(argv, options);
    const [action, dir, ...extra] = positionals;
    if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`);
    if (action === 'schema') return schema(datasetDir(dir), values as Values, io);
    if (action === 'load') return load(datasetDir(dir), values as Values, io);
    throw new UsageError(`aea clickhouse needs schema or load, got ${action ?? 'nothing'}\n\n${usage}`);
  },
};
