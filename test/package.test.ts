import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { sampleDir } from '../src/generate/sample.ts';
import { tempDir } from './helpers/tmp.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = join(root, 'node_modules', '.bin', 'tsc');
const npm = (args: string[], cwd: string) => run('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline'], { cwd, maxBuffer: 16 * 1024 * 1024 });

const app = `import { openEngine, ValidationError } from 'answer-engine-analytics';
import { createServer, ApiKeys } from 'answer-engine-analytics/server';

const engine = await openEngine({ data: process.argv[2] });
const [org] = await engine.listOrganizations();
const acme = engine.org(org.id);
const body = { category_id: org.categories[0].id, start_date: '2026-10-01', end_date: '2026-10-31', scope: 'all', limit: 3 };
const { info, data } = await acme.reports.visibility(body);
const refused = await acme.reports.visibility({ ...body, limit: 0 }).catch((error) => error instanceof ValidationError);
const app = await createServer({ engine, logger: false });
const address = await app.listen({ port: 0, host: '127.0.0.1' });
const { key } = await ApiKeys.of(engine.core.state).create({ organizationId: org.id, name: 'consumer', expiresOn: '2099-01-01', now: new Date() });
const response = await fetch(address + '/v2/reports/visibility', { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const http = await response.json();
await app.close();
await engine.close();
console.log(JSON.stringify({ total: info.total_results, rows: data.length, refused, same: JSON.stringify(http) === JSON.stringify({ info, data }) }));
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
beforeAll(async () => {
  const dir = await tempDir('aea-package-');
  const { stdout } = await npm(['pack', '--json', '--pack-destination', dir], root);
  const packed = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  files = packed[0]!.files.map((f) => f.path);
  project = join(dir, 'consumer');
  await run('mkdir', ['-p', project]);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await npm(['install', join(dir, packed[0]!.filename)], project);
  await writeFile(join(project, 'app.mjs'), app);
  await writeFile(join(project, 'consumer.ts'), consumer);
  const compilerOptions = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false };
  await writeFile(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }));
}, 240_000);

describe('the packed package, installed into another project', () => {
  it('holds the built JavaScript, its types and the bin, and nothing of the repository’s tests, bench or sources', () => {
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/index.d.ts');
    expect(files).toContain('dist/server.d.ts');
    expect(files).toContain('bin/aea.mjs');
    expect(files.filter((f) => !/^(dist\/.+\.(js|d\.ts)|bin\/aea\.mjs|package\.json|README\.md)$/.test(f))).toEqual([]);
    expect(readdirSync(join(project, 'node_modules', 'answer-engine-analytics')).sort()).toEqual(['README.md', 'bin', 'dist', 'package.json']);
  });

  it('imports from plain Node ESM and answers a report over the sample, as a library and as a server', async () => {
    const { stdout } = await run(process.execPath, ['app.mjs', sampleDir], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({ total: 20, rows: 3, refused: true, same: true });
  });

  it('type-checks a consumer file against the shipped declarations, and its types are not `any`', async () => {
    await run(tsc, ['-p', '.'], { cwd: project });
    await writeFile(join(project, 'consumer.ts'), consumer.replace("verify: 'footer'", "verify: 'every'"));
    const failed = await run(tsc, ['-p', '.'], { cwd: project }).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    expect(failed).toContain(`consumer.ts(4,`);
    expect(failed).toContain(`'"every"'`);
    await writeFile(join(project, 'consumer.ts'), consumer);
  });

  it('types every report: a typed consumer compiles under strict and noUncheckedIndexedAccess, each misuse in it an error', async () => {
    const typed = join(project, 'typed');
    await run('mkdir', ['-p', typed]);
    await writeFile(join(typed, 'typed-consumer.ts'), await readFile(join(root, 'test', 'consumer', 'typed-consumer.ts'), 'utf8'));
    const compilerOptions = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noUncheckedIndexedAccess: true, noEmit: true, skipLibCheck: false };
    await writeFile(join(typed, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['typed-consumer.ts'] }));
    const result = await run(tsc, ['-p', '.'], { cwd: typed }).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    expect(result).toBe('');
  }, 240_000);

  it('runs the packed `aea` bin with plain Node', async () => {
    const bin = join(project, 'node_modules', '.bin', 'aea');
    const orgs = JSON.parse((await run(bin, ['orgs', '--data', sampleDir])).stdout) as { id: string; categories: { id: string }[] }[];
    const body = JSON.stringify({ category_id: orgs[0]!.categories[0]!.id, start_date: '2026-10-01', end_date: '2026-10-31', limit: 1 });
    const state = join(project, 'state.duckdb');
    const { stdout } = await run(bin, ['query', '/v2/reports/visibility', '--data', sampleDir, '--org', orgs[0]!.id, '--body', body, '--state', state]);
    expect(JSON.parse(stdout).data).toHaveLength(1);
    const bench = await run(bin, ['bench', '--usage']).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(bench).toMatchObject({ code: 1, stderr: expect.stringContaining('clone of the repository') });
  });
});
