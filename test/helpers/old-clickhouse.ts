import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { onPath } from '../../scripts/system-deps.ts';

export interface RunningServer {
  readonly url: string;
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

/**
 * Starts Debian's clickhouse-server (installed by scripts/system-deps.ts, npm test's pretest) on free
 * ports with its data in `dir`, and resolves once it answers over HTTP. A missing package is an error,
 * never a skipped test.
 */
export async function startDebianClickHouse(dir: string): Promise<RunningServer> {
  if (!onPath('clickhouse-server'))
    throw new Error(
      'clickhouse-server is not installed: run `npm run system-deps` (apt-get install -y clickhouse-server)',
    );
  const [http, tcp, interserver] = [await freePort(), await freePort(), await freePort()];
  for (const sub of ['data', 'tmp', 'user_files', 'format_schemas']) mkdirSync(join(dir, sub), { recursive: true });
  const child: ChildProcess = spawn(
    'clickhouse-server',
    [
      '--config-file=/etc/clickhouse-server/config.xml',
      '--',
      `--http_port=${http}`,
      `--tcp_port=${tcp}`,
      `--interserver_http_port=${interserver}`,
      `--path=${join(dir, 'data')}/`,
      `--tmp_path=${join(dir, 'tmp')}/`,
      `--user_files_path=${join(dir, 'user_files')}/`,
      `--format_schema_path=${join(dir, 'format_schemas')}/`,
      `--logger.log=${join(dir, 'server.log')}`,
      `--logger.errorlog=${join(dir, 'server.err.log')}`,
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = `http://127.0.0.1:${http}`;
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`clickhouse-server exited with ${child.exitCode}; see ${join(dir, 'server.err.log')}`);
    try {
      if ((await fetch(`${url}/ping`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`clickhouse-server did not answer on ${url} within 60 s; see ${join(dir, 'server.err.log')}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      const killed = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killed);
    },
  };
}
