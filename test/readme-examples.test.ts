import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/tmp.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));

/** The README's TypeScript blocks, each with the line it starts on. */
async function readmeBlocks(): Promise<{ line: number; code: string }[]> {
  const lines = (await readFile(join(root, 'README.md'), 'utf8')).split('\n');
  const blocks: { line: number; code: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```ts') continue;
    const end = lines.indexOf('```', i + 1);
    blocks.push({ line: i + 1, code: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return blocks;
}

/**
 * What a fragment takes from the example before it: an engine, an organization's scope, a visibility
 * body and ids. A block that declares a name itself goes without its stand-in.
 */
const standIns: Record<string, string> = {
  engine: 'declare const engine: Engine;',
  acme: 'declare const acme: OrgScope;',
  body: "declare const body: { readonly category_id: string; readonly start_date: string; readonly end_date: string; readonly scope: 'all' };",
  ...Object.fromEntries(
    ['orgId', 'category_id', 'agent_id', 'id', 'start_date', 'end_date', 'knowledge_base_id'].map((n) => [
      n,
      `declare const ${n}: string;`,
    ]),
  ),
};

function declared(code: string): Set<string> {
  const names = new Set<string>();
  for (const m of code.matchAll(/\bconst\s+(?:(\w+)|\[([^\]]+)\]|\{([^}]+)\})/g)) {
    for (const n of (m[1] ?? m[2] ?? m[3] ?? '').split(',')) names.add(n.split(':').at(-1)!.trim());
  }
  return names;
}

function moduleOf(code: string): string {
  const own = declared(code);
  const imports = code.includes("from 'answer-engine-analytics'")
    ? ''
    : "import { openEngine, type Engine, type OrgScope } from 'answer-engine-analytics';\n";
  const prelude = Object.entries(standIns)
    .filter(([name]) => !own.has(name) && new RegExp(`\\b${name}\\b`).test(code))
    .map(([, line]) => line);
  return `${imports}${prelude.join('\n')}\n${code}\nexport {};\n`;
}

describe('the README’s TypeScript examples', () => {
  it('compile as written against the library’s types, under strict and noUncheckedIndexedAccess', async () => {
    const blocks = await readmeBlocks();
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    const dir = await tempDir('aea-readme-');
    const files = blocks.map((b) => `readme-line-${b.line}.mts`);
    await Promise.all(blocks.map((b, i) => writeFile(join(dir, files[i]!), moduleOf(b.code))));
    const compilerOptions = {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      noUncheckedIndexedAccess: true,
      allowImportingTsExtensions: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(root, 'node_modules', '@types')],
      paths: { 'answer-engine-analytics': [join(root, 'src', 'index.ts')] },
    };
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
    const errors = await run(join(root, 'node_modules', '.bin', 'tsc'), ['-p', dir]).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    expect(errors).toBe('');
  }, 120_000);
});
