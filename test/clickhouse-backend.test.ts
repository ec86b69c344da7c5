import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import { serverSupported } from '../src/engine/clickhouse-backend.ts';
import { requireOptional } from '../src/engine/chdb-backend.ts';
import { DatasetError, UnavailableError } from '../src/errors.ts';
import { aea } from './helpers/cli.ts';
import { startDebianClickHouse, type RunningServer } from './helpers/old-clickhouse.ts';
import { tempDir } from './helpers/tmp.ts';

const sample = 'data/sample';
let server: RunningServer;

beforeAll(async () => {
  server = await startDebianClickHouse(await tempDir('aea-clickhouse-'));
}, 90_000);
afterAll(() => server?.stop());

describe('the clickhouse backend and a server too old for its dialect', () => {
  it("reads the server's version: Debian's package is 18.16", async () => {
    const version = await (await fetch(`${server.url}/?query=${encodeURIComponent('SELECT version()')}`)).text();
    expect(version.trim()).toMatch(/^18\.16\./);
  });

  it('openEngine refuses it with a clear error naming the version, the minimum and what to do', async () => {
    const opening = openEngine({ data: sample, backend: 'clickhouse', clickhouseUrl: server.url });
    await expect(opening).rejects.toBeInstanceOf(UnavailableError);
    await expect(opening).rejects.toThrow(
      /is version 18\.16\.\d+; the clickhouse backend needs 24\.3 or later .*Debian's clickhouse-server package is 18\.16.*--backend chdb/,
    );
  });

  it('aea query --backend clickhouse refuses it and exits 1, printing why', async () => {
    const org = '00000000-0000-0000-0000-000000000000';
    const r = await aea([
      'query',
      '/v1/org/categories',
      '--data',
      sample,
      '--org',
      org,
      '--backend',
      'clickhouse',
      '--clickhouse-url',
      server.url,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr + r.stdout).toMatch(/version 18\.16\.\d+; the clickhouse backend needs 24\.3 or later/);
  });

  it('aea clickhouse load and schema refuse it before writing anything, and exit 1 printing why', async () => {
    for (const action of ['load', 'schema']) {
      const r = await aea(['clickhouse', action, sample, '--url', `${server.url}/aea_loaded`]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/version 18\.16\.\d+; the clickhouse backend needs 24\.3 or later/);
    }
    const databases = await (await fetch(`${server.url}/?query=${encodeURIComponent('SHOW DATABASES')}`)).text();
    expect(databases.split('\n')).toContain('default');
    expect(databases.split('\n')).not.toContain('aea_loaded');
  });

  it('an unreachable server, and a missing URL, are clear errors too', async () => {
    await expect(
      openEngine({ data: sample, backend: 'clickhouse', clickhouseUrl: 'http://127.0.0.1:9' }),
    ).rejects.toThrow(/cannot reach the ClickHouse server at 127\.0\.0\.1:9/);
    await expect(openEngine({ data: sample, backend: 'clickhouse' })).rejects.toThrow(/needs `clickhouseUrl`/);
  });

  it('an optional package that is not installed is a DatasetError naming the npm command (as for chdb under npm ci --omit=optional)', () => {
    expect(() => requireOptional('chdb-not-installed', 'the chdb backend')).toThrow(DatasetError);
    expect(() => requireOptional('chdb-not-installed', 'the chdb backend')).toThrow(
      /^the chdb backend needs the optional package chdb-not-installed: run `npm i chdb-not-installed`/,
    );
    expect(requireOptional<{ Session: unknown }>('chdb', 'the chdb backend').Session).toBeTypeOf('function');
  });

  it('accepts 24.3 and later, and nothing before', () => {
    expect(['24.3.1.2672', '24.12.1', '25.1.2', '26.7.2.1'].every(serverSupported)).toBe(true);
    expect(['18.16.1', '23.12.6.19', '24.2.3', ''].some(serverSupported)).toBe(false);
  });
});
