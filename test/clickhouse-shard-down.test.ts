import { beforeAll, describe, expect, it } from 'vitest';
import { inClusterFolder } from './helpers/chdb-cluster.ts';

/**
 * A shard down, on a real Distributed table: chdb reads `remote_servers` from a config.xml in its
 * working directory, so a child process there has a cluster of one local shard (port 9000 is chdb's
 * own tcp_port, so that shard is read in process) and one at 127.0.0.1:1, where nothing listens.
 */
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
interface Faces {
  readonly cli: { code?: number; stdout?: string; stderr?: string; threw?: string };
  readonly http: { status: number; body: string };
}
let result: {
  all: number;
  partial: number;
  ofDown: number;
  perQuery: Outcome;
  reports: Record<'down' | 'live', Outcome>;
  faces: Record<'down' | 'gone', Faces>;
};

beforeAll(async () => {
  result = await inClusterFolder('shard-down-child.ts', config);
}, 300_000);

describe('a shard down: ClickHouse answers partially when told to skip it; the engine never does, and its faces send the usual error body', () => {
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

  it('aea query and the REST service answer a down shard with the usual 503 body, the cause on stderr, never a stack trace', () => {
    const { cli, http } = result.faces.down;
    expect(cli.threw).toBeUndefined();
    expect(cli.code).toBe(1);
    expect(JSON.parse(cli.stdout!)).toEqual({
      detail: expect.stringContaining('A shard of the ClickHouse cluster cannot be reached'),
      code: 'unavailable',
    });
    expect(cli.stderr).toMatch(/^aea: .*All connection tries failed.*127\.0\.0\.1:1/s);
    expect(cli.stderr).not.toMatch(/\n\s+at /);
    expect(http.status).toBe(503);
    expect(JSON.parse(http.body)).toEqual(JSON.parse(cli.stdout!));
  });

  it('any other chdb error (a table missing) is the usual 500 body on both faces, with nothing of the deployment in it', () => {
    const { cli, http } = result.faces.gone;
    expect(cli.threw).toBeUndefined();
    expect(cli.code).toBe(1);
    expect(JSON.parse(cli.stdout!)).toEqual({ detail: 'Internal Server Error', code: 'internal_error' });
    expect(cli.stderr).toMatch(/^aea: .*mentions.*UNKNOWN_TABLE/s);
    expect(cli.stderr).not.toMatch(/\n\s+at /);
    expect(http.status).toBe(500);
    expect(JSON.parse(http.body)).toEqual({ detail: 'Internal Server Error', code: 'internal_error' });
  });
});
