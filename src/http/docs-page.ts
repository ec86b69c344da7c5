import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

const require = createRequire(import.meta.url);
const assetsDir = dirname(require.resolve('swagger-ui-dist/package.json'));
const assets: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Answer Engine Analytics API</title>
<link rel="stylesheet" href="docs/assets/swagger-ui.css">
</head>
<body>
<div id="ui"></div>
<script src="docs/assets/swagger-ui-bundle.js"></script>
<script src="docs/assets/init.js"></script>
</body>
</html>
`;

const init = `window.ui = SwaggerUIBundle({ url: 'openapi.json', dom_id: '#ui', deepLinking: true, validatorUrl: null, tryItOutEnabled: false });\n`;

/** Only this server's own origin: the page works offline and can call nothing else. */
const csp =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; font-src 'self' data:";

/**
 * The API reference at /docs: swagger-ui from the npm package, served by this server, no CDN. The
 * assets are read once here, so serving them never waits for the thread pool behind DuckDB's work.
 */
export async function registerDocsPage(app: FastifyInstance): Promise<void> {
  const cache = new Map<string, Buffer>();
  for (const file of Object.keys(assets)) cache.set(file, await readFile(join(assetsDir, file)));
  app.get('/docs', { config: { public: true } }, async (_req, reply) =>
    reply.header('content-security-policy', csp).type('text/html; charset=utf-8').send(page),
  );
  // The page's links are relative to /docs; relative here too, so that it holds under a prefix.
  app.get('/docs/', { config: { public: true } }, async (_req, reply) => reply.redirect('../docs', 301));
  app.get('/docs/assets/init.js', { config: { public: true } }, async (_req, reply) =>
    reply.type('application/javascript; charset=utf-8').send(init),
  );
  app.get<{ Params: { file: string } }>('/docs/assets/:file', { config: { public: true } }, async (req, reply) => {
    const type = assets[req.params.file];
    if (!type) return reply.code(404).send({ detail: 'Not Found', code: 'not_found' });
    return reply.header('cache-control', 'public, max-age=86400').type(type).send(cache.get(req.params.file));
  });
}
