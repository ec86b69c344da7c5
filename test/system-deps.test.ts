import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { needs, onPath, plan } from '../scripts/system-deps.ts';

const run = promisify(execFile);
const script = fileURLToPath(new URL('../scripts/system-deps.ts', import.meta.url));
const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));

describe('the system packages npm test installs for itself (pretest)', () => {
  it('plans nothing when every command is there, apt-get as root, sudo -n otherwise, and refuses with the command to run when it cannot', () => {
    expect(plan([], { root: true, sudo: false, apt: true })).toEqual({ kind: 'nothing' });
    expect(plan(needs, { root: true, sudo: false, apt: true })).toEqual({
      kind: 'install',
      packages: ['chromium', 'jupyter-nbconvert', 'clickhouse-server'],
      install: ['apt-get', 'install', '-y', 'chromium', 'jupyter-nbconvert', 'clickhouse-server'],
      update: ['apt-get', 'update'],
    });
    expect(plan(needs.slice(1, 2), { root: false, sudo: true, apt: true })).toMatchObject({
      install: ['sudo', '-n', 'apt-get', 'install', '-y', 'jupyter-nbconvert'],
      update: ['sudo', '-n', 'apt-get', 'update'],
    });
    const refused = plan(needs.slice(0, 1), { root: false, sudo: false, apt: true });
    expect(refused).toMatchObject({ kind: 'refuse', packages: ['chromium'] });
    expect(refused.kind === 'refuse' && refused.message).toContain(
      'apt-get install -y chromium\n  chromium: test/http-docs.test.ts',
    );
    expect(plan(needs, { root: true, sudo: false, apt: false })).toMatchObject({
      kind: 'refuse',
      message: expect.stringContaining('no apt-get'),
    });
  });

  it('finds commands on the PATH', () => {
    expect(onPath('node', dirname(process.execPath))).toBe(true);
    expect(onPath('node', join(dirname(process.execPath), 'nowhere'))).toBe(false);
  });

  it('changes nothing when the packages are there, and apt resolves their install for a machine without them', async () => {
    expect(await run(tsx, [script])).toMatchObject({ stdout: '', stderr: '' });
    const { stdout } = await run(tsx, [script, '--assume-missing', 'chromium,jupyter-nbconvert', '--simulate'], {
      timeout: 120_000,
    });
    expect(stdout).toContain(
      'system-deps: missing chromium, jupyter-nbconvert: apt-get install -y chromium jupyter-nbconvert (after apt-get update if that fails)',
    );
    expect(stdout).toMatch(
      /system-deps: apt resolves chromium, jupyter-nbconvert on a machine without them \(\d+ packages\)/,
    );
  }, 120_000);
});
