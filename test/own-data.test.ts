import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import { importFlat } from '../src/import/flat-import.ts';
import { aeaInProcess } from './helpers/cli.ts';
import { tempDir } from './helpers/tmp.ts';

interface Block {
  readonly lang: string;
  readonly info: string;
  readonly text: string;
}

const doc = readFileSync(new URL('../docs/own-data.md', import.meta.url), 'utf8');
const blocks: Block[] = [...doc.matchAll(/```(\w+)([^\n]*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, info: m[2]!.trim(), text: m[3]! }));
const file = (name: string) => blocks.find((b) => b.lang === 'csv' && b.info === name)!.text;
/** Each `npx aea …` line of the page with the block that follows it (what it prints). */
const commands = blocks.flatMap((b, i) => (b.lang === 'sh' && b.text.startsWith('npx aea ') && !b.text.includes('aea check') ? [{ line: b.text.trim(), shows: blocks[i + 1]! }] : []));

/** Splits a shell command line into words, honouring single and double quotes. */
function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

let dir: string;
const here = (text: string) => text.replaceAll('data/trailmark', join(dir, 'trailmark'));
const local = (arg: string) => (/^(answers|citations)\.csv$/.test(arg) ? join(dir, arg) : here(arg));

beforeAll(async () => {
  dir = await tempDir('aea-own-data-');
  await writeFile(join(dir, 'answers.csv'), file('answers.csv'));
  await writeFile(join(dir, 'citations.csv'), file('citations.csv'));
});

/** The page shows `…` for the fingerprint, which hashes this copy's files: any 22-character hash stands. */
function shown(answer: unknown): unknown {
  const info = (answer as { info?: { fingerprint?: unknown } }).info;
  if (info?.fingerprint === undefined) return answer;
  expect(info.fingerprint).toMatch(/^[A-Za-z0-9_-]{22}$/);
  return { ...(answer as object), info: { ...info, fingerprint: '…' } };
}

describe('docs/own-data.md, run as written', () => {
  it('imports the flat files and answers the queries as the page shows', async () => {
    expect(commands.map((c) => words(c.line).slice(0, 3).join(' '))).toEqual(['npx aea import', 'npx aea query', 'npx aea query', 'npx aea query']);
    const [importing, ...queries] = commands;
    const imported = await aeaInProcess(words(importing!.line).slice(2).map(local));
    expect(imported.code).toBe(0);
    expect(imported.stdout.startsWith(here(importing!.shows.text))).toBe(true);
    for (const q of queries) {
      const { code, stdout } = await aeaInProcess(words(q.line).slice(2).map(local));
      expect(q.shows.lang).toBe('json');
      expect(shown(JSON.parse(stdout)), q.line).toEqual(JSON.parse(q.shows.text));
      expect(code).toBe(JSON.parse(q.shows.text).code === 'missing_table' ? 1 : 0);
    }
    const checked = await aeaInProcess(['check', join(dir, 'trailmark')]);
    expect(checked.code).toBe(0);
    expect(checked.stdout).not.toMatch(/^(error|slow) /m);
  });

  it('gives the same answers from the rows as NDJSON, through the library', async () => {
    const [header, ...lines] = file('answers.csv').trim().split('\n');
    const names = header!.split(',');
    const ndjson = lines.map((l) => JSON.stringify(Object.fromEntries(l.split(',').map((v, i) => [names[i], v === '' ? null : v])))).join('\n');
    await writeFile(join(dir, 'answers.ndjson'), ndjson + '\n');
    const result = await importFlat({ answers: join(dir, 'answers.ndjson'), citations: join(dir, 'citations.csv'), organization: 'Trailmark Outdoor', owned: ['Trailmark'], out: join(dir, 'from-json') });
    expect(result.rows).toMatchObject({ executions: 4, mentions: 5, citations: 4, assets: 3, prompts: 2, topics: 2, tags: 2 });
    const engine = await openEngine({ data: result.out });
    try {
      const [, query] = commands;
      const body = JSON.parse(words(query!.line).at(-1)!) as object;
      expect(shown(await engine.org(result.organization.id).report('visibility')(body))).toEqual(JSON.parse(query!.shows.text));
    } finally {
      await engine.close();
    }
  });

  it('refuses bad input with every problem at once, by file and line, as the page shows', async () => {
    const rows = file('answers.csv').split('\n');
    rows[3] = rows[3]!.replace('2026-03-02T15:10:00Z', 'yesterday');
    rows[6] = rows[6]!.replace(/,1$/, ',first');
    await writeFile(join(dir, 'bad.csv'), rows.join('\n'));
    const { code, stderr } = await aeaInProcess(['import', join(dir, 'bad.csv'), '--org', 'Trailmark Outdoor', '--out', join(dir, 'bad')]);
    expect(code).toBe(1);
    const shown = blocks.find((b) => b.lang === 'text' && b.text.startsWith('aea: cannot import'))!.text;
    expect(stderr.replaceAll(`${dir}/bad.csv`, 'answers.csv')).toBe(shown);
    const missing = await aeaInProcess(['import', join(dir, 'citations.csv'), '--org', 'X', '--out', join(dir, 'bad')]);
    expect(missing.stderr).toBe(`aea: ${join(dir, 'citations.csv')}: missing columns "executed_at", "category", "prompt", "model", "region" (see docs/own-data.md)\n`);
    const occupied = await aeaInProcess(['import', join(dir, 'answers.csv'), '--org', 'X', '--out', join(dir, 'trailmark')]);
    expect(occupied.stderr).toContain('is not empty: pass --replace');
  });
});
