import { createHash, createHmac, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { FloorDb } from './db.ts';
import { loadDims, type Dims } from './dims.ts';
import { buildRollups } from './index.ts';
import { str } from './json.ts';
import type { FloorEnv } from './types.ts';
import { visibilityFloors, visibilityWindowPage } from './visibility.ts';

/**
 * A bare node:http server around the expert floor of an ungrouped v2 visibility page (the HTTP load's
 * 30-day request), to compare req/s with `aea serve`: its own DuckDB over the dataset's Parquet (2
 * threads and 4 connections, as the engine's defaults), the floor rollups built before it listens, one
 * key checked per request, and the engine's body shape (info with a signed cursor, data).
 *
 * Run as a child: `tsx bench/floors/http-server.ts DATA_DIR KEY`; prints `listening on http://…`.
 */

const tables = ['executions', 'mentions', 'prompts', 'models', 'regions', 'assets', 'topics', 'personas'];

async function open(dir: string): Promise<{ envs: FloorEnv[]; close(): void }> {
  const instance = await DuckDBInstance.create(':memory:', { threads: '2' });
  const conns = await Promise.all(Array.from({ length: 4 }, () => instance.connect()));
  const setup = new FloorDb(conns[0]!);
  for (const t of tables) {
    const files = existsSync(join(dir, `${t}.parquet`)) ? join(dir, `${t}.parquet`) : join(dir, t, '*.parquet');
    await setup.exec(`CREATE VIEW ${t} AS SELECT * FROM read_parquet('${files.replace(/'/g, "''")}')`);
  }
  await buildRollups(setup, {
    ...visibilityFloors,
    rollups: visibilityFloors.rollups!.filter((r) => r.name.endsWith('_dm')),
  });
  const dims: Dims = await loadDims(setup);
  const envs = conns.map((c) => ({ db: new FloorDb(c), dims }));
  return {
    envs,
    close: () => {
      for (const e of envs) e.db.close();
      for (const c of conns) c.closeSync();
      instance.closeSync();
    },
  };
}

const secret = randomBytes(32);
const cursor = (offset: number, body: string) => {
  const head = Buffer.from(
    JSON.stringify({ o: offset, q: createHash('sha256').update(body).digest('base64url').slice(0, 22) }),
  ).toString('base64url');
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url').slice(0, 22)}`;
};

async function main(): Promise<void> {
  const [dir, key] = process.argv.slice(2);
  const { envs, close } = await open(dir!);
  const idle = [...envs];
  const waiting: ((e: FloorEnv) => void)[] = [];
  const borrow = () => new Promise<FloorEnv>((resolve) => (idle.length ? resolve(idle.pop()!) : waiting.push(resolve)));
  const release = (e: FloorEnv) => (waiting.length ? waiting.shift()!(e) : idle.push(e));
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        if (req.method !== 'POST' || req.url !== '/v2/reports/visibility' || req.headers['x-api-key'] !== key) {
          res
            .writeHead(req.headers['x-api-key'] !== key ? 401 : 404, { 'content-type': 'application/json' })
            .end('{"detail":"no","code":"not_found"}');
          return;
        }
        const text = Buffer.concat(chunks).toString('utf8');
        const body = JSON.parse(text) as { category_id: string; start_date: string; end_date: string };
        const env = await borrow();
        try {
          const page = await visibilityWindowPage(env, {
            organizationId: '',
            categoryId: body.category_id,
            startDate: body.start_date,
            endDate: body.end_date,
            asset: '',
            domain: '',
          });
          const next = page.total > page.rows.length ? str(cursor(page.rows.length, text)) : 'null';
          const json = `{"info":{"total_results":${page.total},"count":${page.rows.length},"next_cursor":${next},"scope":"all","models":${JSON.stringify(page.models)},"start_date":${str(body.start_date)},"end_date":${str(body.end_date)},"asset_filter":null,"filter":null},"data":[${page.rows.join(',')}]}`;
          res
            .writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) })
            .end(json);
        } catch (e) {
          res
            .writeHead(500, { 'content-type': 'application/json' })
            .end(JSON.stringify({ detail: String(e), code: 'internal' }));
        } finally {
          release(env);
        }
      })();
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(
      `floor server listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`,
    );
  });
  process.on('SIGTERM', () => {
    // Idle keep-alive sockets would hold close() open: end them, then the DuckDB instance, then the process.
    // TRICKY: the instance closes only once every connection is back: closing one whose statement still ran on
    // a worker thread crashed the process (SIGSEGV, or glibc's `corrupted double-linked list`).
    server.closeAllConnections();
    server.close();
    const drained = () => {
      if (idle.length < envs.length) return void setTimeout(drained, 5);
      close();
      process.exit(0);
    };
    drained();
  });
}

await main();
