import { bench } from './bench.ts';
import { check } from './check.ts';
import { clickhouse } from './clickhouse.ts';
import type { Command } from './command.ts';
import { docsModel } from './docs-model.ts';
import { generate } from './generate.ts';
import { importCommand } from './import.ts';
import { orgs } from './orgs.ts';
import { query } from './query.ts';
import { start } from './start.ts';
import { serve } from './serve.ts';
import { keys } from './keys.ts';
import { mcp } from './mcp.ts';

export const commands: Record<string, Command> = {
  bench,
  check,
  clickhouse,
  generate,
  import: importCommand,
  orgs,
  query,
  start,
  serve,
  keys,
  'docs-model': docsModel,
  mcp,
};
