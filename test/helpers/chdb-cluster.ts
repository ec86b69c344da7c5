import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sampleDir } from '../../src/generate/sample.ts';
import { aea } from './cli.ts';
import { tempDir } from './tmp.ts';

/** tsx by its path: the child runs in a temporary folder, where the package cannot be found by name. */
const tsx = pathToFileURL(
  join(dirname(fileURLToPath(import.meta.url)), '../../node_modules/tsx/dist/esm/index.mjs'),
).href;

/**
 * chdb reads `remote_servers` from a config.xml in its working directory, so clusters can be made
 * without a server: loads the sample into a chdb directory (database aea) with `aea clickhouse load`,
 * then runs `script` (a file of test/helpers) in a folder holding `config` with that directory and
 * the sample as arguments, and answers the JSON of the last line it prints.
 */
export async function inClusterFolder<T>(script: string, config: string): Promise<T> {
  const dir = await tempDir('aea-cluster-');
  const load = await aea(['clickhouse', 'load', sampleDir, '--url', `chdb:${dir}/chdb?database=aea`]);
  if (load.code !== 0) throw new Error(`the load failed: ${load.stderr}`);
  await writeFile(join(dir, 'config.xml'), config);
  const child = fileURLToPath(new URL(`./${script}`, import.meta.url));
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', tsx, child, join(dir, 'chdb'), sampleDir],
      { cwd: dir, maxBuffer: 16 * 1024 * 1024 },
      (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
    ),
  );
  return JSON.parse(stdout.trim().split('\n').pop()!) as T;
}
