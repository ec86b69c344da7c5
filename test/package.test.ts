import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { sampleDir } from '../src/generate/sample.ts';
import { endpoints } from '../src/registry.ts';
import { buildIsCurrent } from './helpers/cli.ts';
import { tempDir } from './helpers/tmp.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = join(root, 'node_modules', '.bin', 'tsc');
const npm = (args: string[], cwd: string) =>
  run('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline'], { cwd, maxBuffer: 16 * 1024 * 1024 });

/** The README's app.mjs, run as written. */
const readmeApp = /```js\n(\/\/ app\.mjs[\s\S]*?)```/.exec(readFileSync(join(root, 'README.md'), 'utf8'))![1]!;

/**
 * Every face from plain Node: each report (its /docs example, read from the embedded server's OpenAPI
 * document), a stream, each format, a knowledge-base search as a library call and over HTTP with a key
 * minted through the library.
 */
const drive = `import { openEngine, endpoints } from 'answer-engine-analytics';
import { createServer, ApiKeys } from 'answer-engine-analytics/server';

const engine = await openEngine({ data: 'data/sample', state: 'drive.state.duckdb' });
const [org] = await engine.listOrganizations();
const acme = engine.org(org.id);
const { key } = await ApiKeys.of(engine.core.state).create({ organizationId: org.id, name: 'consumer test', expiresOn: '2099-12-31', now: new Date() });
const app = await createServer({ engine, logger: false });
const address = await app.listen({ port: 0, host: '127.0.0.1' });
const doc = await (await fetch(address + '/openapi.json')).json();
const example = (e) => doc.paths[e.path][e.method.toLowerCase()].requestBody?.content['application/json'].example;

const reports = {};
for (const e of endpoints.filter((e) => e.group === 'reports' && !e.stream)) {
  reports[e.path] = await acme.reports[e.name](example(e)).then((page) => Array.isArray(page.data) ? 'rows' : 'answer', (error) => error.constructor.name);
}
const visibility = example(endpoints.find((e) => e.path === '/v2/reports/visibility'));
const events = [];
for await (const { event } of acme.reports.visibilityStream({ ...visibility, limit: undefined })) events.push(event);
const csv = await acme.reports.visibility(visibility, { format: 'csv' });
const ndjson = await acme.reports.visibility(visibility, { format: 'ndjson' });
const arrow = await acme.reports.visibility(visibility, { format: 'arrow' });
const parquet = await acme.reports.visibility(visibility, { format: 'parquet' });
const formats = {
  csv: csv.split('\\n').filter(Boolean).length - 1,
  ndjson: ndjson.split('\\n').filter(Boolean).length,
  arrow: arrow.numRows,
  parquet: parquet instanceof Uint8Array && Buffer.from(parquet.subarray(0, 4)).toString() === 'PAR1',
};
const kb = (await acme.resources.knowledgeBases({})).data[0].id;
const search = { query: 'warranty', top_k: 2 };
const library = (await acme.resources.searchKnowledgeBase({ params: { knowledge_base_id: kb }, body: search })).data;
const response = await fetch(address + '/v1/knowledge-bases/' + kb + '/search', { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify(search) });
const served = await response.json();
await app.close();
await engine.close();
const chdb = await openEngine({ data: 'data/sample', backend: 'chdb' }).then((e) => e.close().then(() => 'opened'), (error) => error.constructor.name + ': ' + error.message);
console.log(JSON.stringify({ reports, events: [events[0], events.length], formats, search: { library: library.length, status: response.status, same: JSON.stringify(served.data) === JSON.stringify(library) }, chdb }));
`;

/** The packages (CommonJS ones: DuckDB's, Fastify) an \`aea\` command line loaded, printed to stderr as it exits. */
const loaded = `import { createRequire } from 'node:module';
process.on('exit', () => {
  const names = Object.keys(createRequire(import.meta.url).cache).map((f) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(f)?.[1]).filter(Boolean);
  process.stderr.write('loaded ' + JSON.stringify([...new Set(names)].sort()) + '\\n');
});
process.argv.splice(2, Infinity, ...JSON.parse(process.env.AEA_ARGS));
await import('./node_modules/answer-engine-analytics/dist/aea/main.js');
`;

const consumer = `import { openEngine, DatasetError, type EngineOptions, type OrganizationListing } from 'answer-engine-analytics';
import { createServer, type ServerOptions } from 'answer-engine-analytics/server';

const options: EngineOptions = { data: 'data/sample', verify: 'footer' };
const engine = await openEngine(options);
const orgs: OrganizationListing[] = await engine.listOrganizations();
const names: string[] = orgs.map((o) => o.name);
const server: ServerOptions = { engine };
await createServer(server);
const failure: DatasetError | undefined = undefined;
export { names, failure };
`;

let project: string;
let files: string[];
let bin: string;
beforeAll(async () => {
  const dir = await tempDir('aea-package-');
  // `npm pack` would run `prepare`, the build, which `npm ci` has just run: it is run here only when dist/ is stale.
  if (!buildIsCurrent()) await run('npm', ['run', 'build'], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
  const { stdout } = await npm(['pack', '--json', '--ignore-scripts', '--pack-destination', dir], root);
  const packed = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  files = packed[0]!.files.map((f) => f.path);
  project = join(dir, 'consumer');
  await run('mkdir', ['-p', project]);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await npm(['install', join(dir, packed[0]!.filename)], project);
  bin = join(project, 'node_modules', '.bin', 'aea');
  await writeFile(join(project, 'app.mjs'), readmeApp);
  await writeFile(join(project, 'drive.mjs'), drive);
  await writeFile(join(project, 'loaded.mjs'), loaded);
  await writeFile(join(project, 'consumer.ts'), consumer);
  await writeFile(join(project, 'consumer-every.ts'), consumer.replace("verify: 'footer'", "verify: 'every'"));
  await writeFile(
    join(project, 'typed-consumer.ts'),
    await readFile(join(root, 'test', 'consumer', 'typed-consumer.ts'), 'utf8'),
  );
  const compilerOptions = {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    skipLibCheck: false,
  };
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({ compilerOptions, files: ['consumer.ts', 'consumer-every.ts', 'typed-consumer.ts'] }),
  );
}, 300_000);

/**
 * One tsc run over the consumer files: most of a run is reading and checking the shipped declarations and
 * the packages they import, which a program does once for all its files. Answers the files with errors
 * and tsc's output. `strict` and `noUncheckedIndexedAccess` for all: those flags only add errors, so
 * a file that compiles under both compiles under `strict` alone.
 */
let checked: Promise<{ files: string[]; output: string }> | undefined;
const typeCheck = () =>
  (checked ??= run(tsc, ['-p', '.'], { cwd: project }).then(
    () => ({ files: [], output: '' }),
    (error: { stdout: string }) => ({
      files: [...new Set([...error.stdout.matchAll(/^(\S+)\(\d+,\d+\): error/gm)].map((m) => m[1]!))],
      output: error.stdout,
    }),
  ));

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => ({ code: 0, stderr: '' }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  );

describe('the packed package, installed into another project', () => {
  it('holds the built JavaScript, its types and the bin, and nothing of the repository’s tests, bench or sources', () => {
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/index.d.ts');
    expect(files).toContain('dist/server.d.ts');
    expect(files).toContain('dist/knowledge/search-worker.js');
    expect(files).toContain('bin/aea.mjs');
    expect(files).toContain('dist/mcp/tool-manifest.json');
    expect(
      files.filter(
        (f) =>
          !/^(dist\/.+\.(js|d\.ts)|dist\/mcp\/tool-manifest\.json|bin\/aea\.mjs|package\.json|README\.md)$/.test(f),
      ),
    ).toEqual([]);
    expect(readdirSync(join(project, 'node_modules', 'answer-engine-analytics')).sort()).toEqual([
      'README.md',
      'bin',
      'dist',
      'package.json',
    ]);
  });

  it('installs what src/ imports and no more: no chdb, no TypeScript loader, no test-only packages, within 150 MB', async () => {
    for (const name of ['chdb', 'tsx', 'date-fns', 'date-fns-tz', 'typescript', 'vitest'])
      expect(existsSync(join(project, 'node_modules', name)), name).toBe(false);
    const { stdout } = await run('du', ['-sk', join(project, 'node_modules')]);
    expect(Number(stdout.split('\t')[0]) / 1024).toBeLessThanOrEqual(150);
  });

  it('`aea sample --out DIR` writes the bundled sample: the same tables, byte for byte, as the repository’s', async () => {
    const { stdout } = await run(bin, ['sample', '--out', 'data/sample'], { cwd: project });
    expect(JSON.parse(stdout)).toMatchObject({ seed: 1, scale: 0.02 });
    const tablesOf = (dir: string) =>
      (JSON.parse(readFileSync(join(dir, 'dataset.json'), 'utf8')) as { files: Record<string, string> }).files;
    expect(tablesOf(join(project, 'data', 'sample'))).toEqual(tablesOf(sampleDir));
    await writeFile(join(project, 'notes.txt'), 'mine');
    expect(await refusal(run(bin, ['sample', '--out', '.'], { cwd: project }))).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('neither empty nor a dataset folder'),
    });
  }, 120_000);

  it('runs the README’s app.mjs as written: a report, a key minted through the library, the embedded server', async () => {
    const { stdout } = await run(process.execPath, ['app.mjs'], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({ rows: 3, status: 200, same: true, prefix: expect.stringMatching(/^aea_/) });
  });

  it('answers every report, a stream, each format and a knowledge-base search from plain Node, and over HTTP; chdb says how to get it', async () => {
    const { stdout } = await run(process.execPath, ['drive.mjs'], { cwd: project });
    const answered = JSON.parse(stdout) as { reports: Record<string, string> };
    const pages = endpoints.filter((e) => e.group === 'reports' && !e.stream).map((e) => e.path);
    expect(answered.reports).toEqual(Object.fromEntries(pages.map((path) => [path, 'rows'])));
    expect(answered).toMatchObject({
      events: ['summary', expect.any(Number)],
      formats: { csv: 5, ndjson: 5, arrow: 5, parquet: true },
      search: { library: 2, status: 200, same: true },
    });
    expect(answered).toMatchObject({
      chdb: expect.stringMatching(/^DatasetError: the chdb backend .* run `npm i chdb`/),
    });
  }, 120_000);

  it('type-checks a consumer file against the shipped declarations, and its types are not `any`', async () => {
    const { files, output } = await typeCheck();
    expect(files).toEqual(['consumer-every.ts']);
    expect(output).toContain(`consumer-every.ts(4,`);
    expect(output).toContain(`'"every"'`);
  }, 240_000);

  it('types every report: a typed consumer compiles under strict and noUncheckedIndexedAccess, each misuse in it an error', async () => {
    // The one file with errors is the deliberate misuse of the test above: tsc did check the program.
    expect((await typeCheck()).files).toEqual(['consumer-every.ts']);
  }, 240_000);

  it('runs the packed `aea` bin with plain Node: help, orgs, a query, a knowledge-base search; chdb and the bench say what they need', async () => {
    expect((await run(bin, ['--help'])).stdout).toMatch(/^ {2}sample {7}write the bundled sample/m);
    const orgs = JSON.parse((await run(bin, ['orgs', '--data', 'data/sample'], { cwd: project })).stdout) as {
      id: string;
      categories: { id: string }[];
    }[];
    const body = JSON.stringify({
      category_id: orgs[0]!.categories[0]!.id,
      start_date: '2026-10-01',
      end_date: '2026-10-31',
      limit: 1,
    });
    const query = [
      'query',
      '/v2/reports/visibility',
      '--data',
      'data/sample',
      '--org',
      orgs[0]!.id,
      '--body',
      body,
      '--state',
      'cli.state.duckdb',
    ];
    const { stdout } = await run(bin, query, { cwd: project });
    expect(JSON.parse(stdout).data).toHaveLength(1);
    // The bundled CLI (dist/aea/) starts the search worker that lives in dist/knowledge/.
    const scope = ['--data', 'data/sample', '--org', orgs[0]!.id, '--state', 'cli.state.duckdb'];
    const kb = (
      JSON.parse((await run(bin, ['query', '/v1/knowledge-bases', ...scope], { cwd: project })).stdout) as {
        data: { id: string }[];
      }
    ).data[0]!.id;
    const searched = JSON.parse(
      (
        await run(
          bin,
          [
            'query',
            `/v1/knowledge-bases/${kb}/search`,
            ...scope,
            '--body',
            JSON.stringify({ query: 'warranty', top_k: 2 }),
          ],
          { cwd: project },
        )
      ).stdout,
    ) as { data: unknown[] };
    expect(searched.data).toHaveLength(2);
    expect(await refusal(run(bin, [...query, '--backend', 'chdb'], { cwd: project }))).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('run `npm i chdb`'),
    });
    expect(await refusal(run(bin, ['bench', '--usage']))).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('clone of the repository'),
    });
  });

  it('loads only what a command needs: `aea --help` neither DuckDB nor Fastify, `aea orgs` no Fastify', async () => {
    const packages = async (args: string[]) => {
      const { stderr } = await run(process.execPath, ['loaded.mjs'], {
        cwd: project,
        env: { ...process.env, AEA_ARGS: JSON.stringify(args) },
      });
      return JSON.parse(/^loaded (.*)$/m.exec(stderr)![1]!) as string[];
    };
    expect(await packages(['--help'])).toEqual([]);
    const orgs = await packages(['orgs', '--data', 'data/sample']);
    expect(orgs).toContain('@duckdb/node-api');
    expect(orgs.filter((p) => /fastify|ajv|cli-progress/.test(p))).toEqual([]);
  });
});
