import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { sampleDir } from '../src/generate/sample.ts';
import { aea } from './helpers/cli.ts';
import { tempDir } from './helpers/tmp.ts';

/**
 * A shard down, on a real Distributed table: chdb reads `remote_servers` from a config.xml in its
 * working directory, so a child process there has a cluster of one local shard (port 9000 is chdb's
 * own tcp_port, so that shard is read in process) and one at 127.0.0.1:1, where nothing listens.
 */
const child = fileURLToPath(new URL('./helpers/shard-down-child.ts', import.meta.url));
/** tsx by its path: the child runs in the temporary folder, where the package cannot be found by name. */
const tsx = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), '../node_modules/tsx/dist/esm/index.mjs')).href;
const config = `<clickhouse>
  <tcp_port>9000</tcp_port>
  <remote_servers>
    <down>
      <shard><weight>1</weight><replica><host>127.0.0.1</host><port>9000</port></replica></shard>
      <shard><weight>2</weight><replica><host>127.0.0.1</host><port>1</port></replica></shard>
    </down>
  </remote_servers>
</clickhouse>
`;

interface Outcome {
  readonly answered?: unknown;
  readonly error?: string;
}
let result: { all: number; partial: number; ofDown: number; perQuery: Outcome; reports: Record<'down' | 'live', Outcome> };

beforeAll(async () => {
  const dir = await tempDir('aea-shard-down-');
  const load = await aea(['clickhouse', 'load', sampleDir, '--url', `chdb:${dir}/chdb?database=aea`]);
  expect(load.code).toBe(0);
  await writeFile(`${dir}/config.xml`, config);
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, ['--import', tsx, child, `${dir}/chdb`, sampleDir], { cwd: dir, maxBuffer: 16 * 1024 * 1024 }, (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out))),
  );
  result = JSON.parse(stdout.trim().split('\n').pop()!);
}, 300_000);

describe('a shard down: ClickHouse answers partially when told to skip it; the engine never does', () => {
  it('with skip_unavailable_shards = 1 on the session, ClickHouse answers the live shard alone, and nothing for a tenant on the down shard', () => {
    expect(result.partial).toBeGreaterThan(0);
    expect(result.partial).toBeLessThan(result.all);
    expect(result.ofDown).toBe(0);
  });

  it("the engine's settings, sent with a statement, override the session's: an error naming the down shard", () => {
    expect(result.perQuery.answered).toBeUndefined();
    expect(result.perQuery.error).toMatch(/All connection tries failed.*127\.0\.0\.1:1/);
  });

  it('a report through the engine fails, for a tenant on the down shard and for one on the live shard', () => {
    for (const side of ['down', 'live'] as const) {
      expect(result.reports[side].answered).toBeUndefined();
      expect(result.reports[side].error).toMatch(/All connection tries failed.*127\.0\.0\.1:1/);
    }
  });
});
