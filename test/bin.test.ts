import { execFile } from 'node:child_process';
import { copyFile, mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/tmp.ts';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../bin/aea.mjs', import.meta.url));

/** bin/aea.mjs in a layout of its own, whose two entry points say which one ran and with what. */
let root: string;
const which = async (...args: string[]) =>
  (await run(process.execPath, [join(root, 'bin', 'aea.mjs'), ...args])).stdout;
const at = (file: string, seconds: number) => utimes(join(root, file), seconds, seconds);

beforeAll(async () => {
  root = await tempDir('aea-bin-');
  await mkdir(join(root, 'bin'));
  await copyFile(bin, join(root, 'bin', 'aea.mjs'));
  await mkdir(join(root, 'dist', 'aea'), { recursive: true });
  await mkdir(join(root, 'src', 'cli', 'commands'), { recursive: true });
  await writeFile(
    join(root, 'dist', 'aea', 'main.js'),
    "process.stdout.write('dist ' + process.argv.slice(2).join(' '));\n",
  );
  await writeFile(
    join(root, 'src', 'cli', 'aea.mjs'),
    "process.stdout.write('src ' + process.argv.slice(2).join(' '));\n",
  );
  await writeFile(join(root, 'src', 'cli', 'commands', 'query.ts'), '');
});

describe('bin/aea.mjs', () => {
  it('runs the build when no source is newer, the sources when one is, and always for the bench', async () => {
    await at('src/cli/aea.mjs', 1_000);
    await at('src/cli/commands/query.ts', 1_000);
    await at('dist/aea/main.js', 2_000);
    expect(await which('query', '--help')).toBe('dist query --help');
    expect(await which('bench')).toBe('src bench');
    await at('src/cli/commands/query.ts', 3_000);
    expect(await which('--help')).toBe('src --help');
  });

  it('runs the build where there are no sources (the installed package), and the sources where there is no build', async () => {
    await rm(join(root, 'src'), { recursive: true });
    expect(await which('orgs')).toBe('dist orgs');
    await mkdir(join(root, 'src', 'cli'), { recursive: true });
    await writeFile(
      join(root, 'src', 'cli', 'aea.mjs'),
      "process.stdout.write('src ' + process.argv.slice(2).join(' '));\n",
    );
    await rm(join(root, 'dist'), { recursive: true });
    expect(await which('orgs')).toBe('src orgs');
  });
});
