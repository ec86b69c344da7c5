import { createServer } from 'node:http';
import { openEngine } from '../src/open-engine.ts';

/**
 * A bare node:http server around the library's own call (issue 23): the engine opened through the
 * library as `aea serve` opens it (the default pool and rollups, result cache off unless a size is given,
 * its own in-memory state), one key checked by string comparison, the JSON body parsed and handed to
 * `engine.org(id).reports.visibility`, and `JSON.stringify` of the answer written. What `aea serve`
 * spends beyond this server on the same request is the service's own overhead: Fastify, key lookup,
 * rate counting, the ETag, logging, slots.
 *
 * Run as a child: `tsx bench/bare-server.ts DATA_DIR ORGANIZATION_ID KEY [RESULT_CACHE]`; prints `listening on http://…`.
 */

const maxBody = 64 * 1024;

async function main(): Promise<void> {
  const [data, organizationId, key, resultCache = '0'] = process.argv.slice(2);
  if (!data || !organizationId || !key)
    throw new Error('usage: bare-server.ts DATA_DIR ORGANIZATION_ID KEY [RESULT_CACHE]');
  const engine = await openEngine({ data, resultCache });
  const reports = engine.org(organizationId).reports;
  const fail = (res: import('node:http').ServerResponse, status: number, detail: string) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ detail }));
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBody) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      if (req.headers['x-api-key'] !== key) return fail(res, 401, 'invalid key');
      if (req.method !== 'POST' || req.url !== '/v2/reports/visibility') return fail(res, 404, 'not found');
      // The library validates the body as the service does; the cast only names its type.
      let body: Parameters<typeof reports.visibility>[0];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
      } catch {
        return fail(res, 400, 'malformed JSON');
      }
      reports.visibility(body).then(
        (page) => {
          const json = JSON.stringify(page);
          res
            .writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) })
            .end(json);
        },
        (error: unknown) => fail(res, 500, String(error)),
      );
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(
      `bare-library server listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`,
    );
  });
  process.on('SIGTERM', () => {
    // Idle keep-alive sockets would hold close() open: end them, then the engine, then the process.
    server.closeAllConnections();
    server.close();
    void engine.close().finally(() => process.exit(0));
  });
}

await main();
