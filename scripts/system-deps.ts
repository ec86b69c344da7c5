/**
 * Installs the Debian packages the test suite drives for real, when they are missing: `npm test` runs
 * this first (pretest). As root (CI) it runs apt-get; otherwise it uses `sudo -n` when that works, and
 * else says what to install and fails, since the browser and notebook tests cannot pass without them.
 *
 *   tsx scripts/system-deps.ts                      install what is missing
 *   tsx scripts/system-deps.ts --dry-run            print what it would run
 *   tsx scripts/system-deps.ts --simulate           also ask apt to resolve the install on a machine without them
 *   tsx scripts/system-deps.ts --assume-missing chromium,jupyter-nbconvert --simulate
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

export interface SystemNeed {
  readonly package: string;
  readonly command: string;
  readonly why: string;
}

export const needs: readonly SystemNeed[] = [
  { package: 'chromium', command: 'chromium', why: 'test/http-docs.test.ts opens the docs page in a real browser' },
  {
    package: 'jupyter-nbconvert',
    command: 'jupyter-nbconvert',
    why: 'test/notebook.test.ts executes the example notebook headlessly',
  },
  {
    package: 'clickhouse-server',
    command: 'clickhouse-server',
    why: "test/clickhouse-backend.test.ts starts Debian's ClickHouse 18.16, which the clickhouse backend must refuse",
  },
];

export interface Machine {
  readonly root: boolean;
  /** `sudo -n` runs without asking for a password. */
  readonly sudo: boolean;
  readonly apt: boolean;
}

export type Plan =
  | { readonly kind: 'nothing' }
  | {
      readonly kind: 'install';
      readonly packages: readonly string[];
      readonly install: readonly string[];
      readonly update: readonly string[];
    }
  | { readonly kind: 'refuse'; readonly packages: readonly string[]; readonly message: string };

export function onPath(command: string, path = process.env.PATH ?? ''): boolean {
  return path.split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** What to run for the needs whose command is missing: apt-get install (after an update when that fails), as root or through sudo. */
export function plan(missing: readonly SystemNeed[], machine: Machine): Plan {
  if (missing.length === 0) return { kind: 'nothing' };
  const packages = missing.map((n) => n.package);
  const why = missing.map((n) => `  ${n.package}: ${n.why}`).join('\n');
  if (!machine.apt)
    return {
      kind: 'refuse',
      packages,
      message: `npm test needs these Debian packages and this machine has no apt-get; install them another way:\n${why}`,
    };
  if (!machine.root && !machine.sudo) {
    return {
      kind: 'refuse',
      packages,
      message: `npm test needs these Debian packages; install them as root, then run it again:\n  apt-get install -y ${packages.join(' ')}\n${why}`,
    };
  }
  const prefix = machine.root ? [] : ['sudo', '-n'];
  return {
    kind: 'install',
    packages,
    install: [...prefix, 'apt-get', 'install', '-y', ...packages],
    update: [...prefix, 'apt-get', 'update'],
  };
}

const run = (argv: readonly string[], quiet = true) =>
  spawnSync(argv[0]!, argv.slice(1), {
    stdio: quiet ? 'ignore' : 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  }).status === 0;

function machine(): Machine {
  return {
    root: process.getuid?.() === 0,
    sudo: onPath('sudo') && run(['sudo', '-n', 'true']),
    apt: onPath('apt-get'),
  };
}

/** Asks apt to resolve the install as on a machine with nothing installed (an empty dpkg status): changes nothing. */
function simulate(packages: readonly string[]): { ok: boolean; count: number } {
  const dir = mkdtempSync(join(tmpdir(), 'aea-apt-'));
  try {
    writeFileSync(join(dir, 'status'), '');
    const r = spawnSync(
      'apt-get',
      ['install', '--simulate', '-o', `Dir::State::status=${join(dir, 'status')}`, ...packages],
      { encoding: 'utf8' },
    );
    const installs = r.stdout.split('\n').filter((l) => l.startsWith('Inst '));
    const ok = r.status === 0 && packages.every((p) => installs.some((l) => l.startsWith(`Inst ${p} `)));
    return { ok, count: installs.length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function main(): number {
  const { values } = parseArgs({
    options: { 'dry-run': { type: 'boolean' }, simulate: { type: 'boolean' }, 'assume-missing': { type: 'string' } },
  });
  const assumed = new Set((values['assume-missing'] ?? '').split(',').filter(Boolean));
  const missing = needs.filter((n) => assumed.has(n.package) || !onPath(n.command));
  const p = plan(missing, machine());
  const say = (text: string) => process.stdout.write(`system-deps: ${text}\n`);
  if (p.kind === 'nothing') return 0;
  if (p.kind === 'refuse') {
    process.stderr.write(`system-deps: ${p.message}\n`);
    return 1;
  }
  say(`missing ${p.packages.join(', ')}: ${p.install.join(' ')} (after ${p.update.join(' ')} if that fails)`);
  if (values.simulate) {
    const s = simulate(p.packages);
    say(
      s.ok
        ? `apt resolves ${p.packages.join(', ')} on a machine without them (${s.count} packages)`
        : `apt cannot resolve ${p.packages.join(', ')}`,
    );
    return s.ok ? 0 : 1;
  }
  if (values['dry-run']) return 0;
  if (!run(p.install) && !(run(p.update) && run(p.install, false))) {
    process.stderr.write(`system-deps: could not install ${p.packages.join(', ')}\n`);
    return 1;
  }
  say(`installed ${p.packages.join(', ')}`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main();
