import { existsSync, readFileSync } from 'node:fs';
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
const blocks: Block[] = [...doc.matchAll(/```(\w+)([^\n]*)\n([\s\S]*?)```/g)].map((m) => ({
  lang: m[1]!,
  info: m[2]!.trim(),
  text: m[3]!,
}));
const file = (name: string) => blocks.find((b) => b.lang === 'csv' && b.info === name)!.text;
/** Each `npx aea …` line of the page with the block that follows it (what it prints). */
const commands = blocks.flatMap((b, i) =>
  b.lang === 'sh' && b.text.startsWith('npx aea ') && !b.text.includes('aea check')
    ? [{ line: b.text.trim(), shows: blocks[i + 1]! }]
    : [],
);

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
    expect(commands.map((c) => words(c.line).slice(0, 3).join(' '))).toEqual([
      'npx aea import',
      'npx aea query',
      'npx aea query',
      'npx aea query',
    ]);
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
    const ndjson = lines
      .map((l) => JSON.stringify(Object.fromEntries(l.split(',').map((v, i) => [names[i], v === '' ? null : v]))))
      .join('\n');
    await writeFile(join(dir, 'answers.ndjson'), ndjson + '\n');
    const result = await importFlat({
      answers: join(dir, 'answers.ndjson'),
      citations: join(dir, 'citations.csv'),
      organization: 'Trailmark Outdoor',
      owned: ['Trailmark'],
      out: join(dir, 'from-json'),
    });
    expect(result.rows).toMatchObject({
      executions: 4,
      mentions: 5,
      citations: 4,
      assets: 3,
      prompts: 2,
      topics: 2,
      tags: 2,
    });
    const engine = await openEngine({ data: result.out });
    try {
      const [, query] = commands;
      const body = JSON.parse(words(query!.line).at(-1)!) as object;
      expect(shown(await engine.org(result.organization.id).report('visibility')(body))).toEqual(
        JSON.parse(query!.shows.text),
      );
    } finally {
      await engine.close();
    }
  });

  it('refuses bad input with every problem at once, by file and line, as the page shows', async () => {
    const rows = file('answers.csv').split('\n');
    rows[3] = rows[3]!.replace('2026-03-02T15:10:00Z', 'yesterday');
    rows[6] = rows[6]!.replace(/,1$/, ',first');
    await writeFile(join(dir, 'bad.csv'), rows.join('\n'));
    const { code, stderr } = await aeaInProcess([
      'import',
      join(dir, 'bad.csv'),
      '--org',
      'Trailmark Outdoor',
      '--out',
      join(dir, 'bad'),
    ]);
    expect(code).toBe(1);
    const shown = blocks.find((b) => b.lang === 'text' && b.text.startsWith('aea: cannot import'))!.text;
    expect(stderr.replaceAll(`${dir}/bad.csv`, 'answers.csv')).toBe(shown);
    const missing = await aeaInProcess(['import', join(dir, 'citations.csv'), '--org', 'X', '--out', join(dir, 'bad')]);
    expect(missing.stderr).toBe(
      `aea: ${join(dir, 'citations.csv')}: missing columns "executed_at", "category", "prompt", "model", "region" (see docs/own-data.md)\n`,
    );
    const occupied = await aeaInProcess([
      'import',
      join(dir, 'answers.csv'),
      '--org',
      'X',
      '--out',
      join(dir, 'trailmark'),
    ]);
    expect(occupied.stderr).toContain('is not empty: pass --replace');
  });
});

describe('aea import: lines, counts, columns, limits, a second organization', () => {
  const header = 'answer_id,executed_at,category,prompt,model,region,brand,position,response';
  const row = (id: string, at = '2026-03-02T14:05:00Z', more = 'Trailmark,1,ok') =>
    `${id},${at},Hiking boots,best boots,ChatGPT,US,${more}`;
  const importing = (name: string, text: string, ...more: string[]) =>
    writeFile(join(dir, `${name}.csv`), text).then(() =>
      aeaInProcess([
        'import',
        join(dir, `${name}.csv`),
        '--org',
        'Trailmark Outdoor',
        '--out',
        join(dir, `${name}-out`),
        ...more,
      ]),
    );

  it('numbers problems by the line they are on, after quoted line breaks and blank lines', async () => {
    const text =
      [
        header,
        row('a1'),
        row('a2', '2026-03-02T14:06:00Z', 'Trailmark,1,"one\ntwo\nthree"'),
        '',
        row('a3', 'yesterday'),
        row('a4', '2026-03-02T14:07:00Z', 'Trailmark,first,ok'),
      ].join('\n') + '\n';
    const { code, stderr } = await importing('multiline', text);
    expect(code).toBe(1);
    const file = join(dir, 'multiline.csv');
    expect(stderr).toBe(
      `aea: cannot import:\n  ${file} line 7: executed_at "yesterday" is not an instant (e.g. 2026-03-02T14:05:00Z)\n  ${file} line 8: position "first" is not a whole number of 1 or more\n`,
    );
    expect(text.split('\n')[6]).toContain('yesterday');
    expect(text.split('\n')[7]).toContain('first');
  });

  it('lists the first 20 problems of a kind and counts the rest', async () => {
    const rows = Array.from({ length: 25 }, (_, i) =>
      row(`b${i}`, `2026-03-02T14:${String(i).padStart(2, '0')}:00Z`, `Trailmark,0,ok`),
    );
    const { code, stderr } = await importing('many', [header, ...rows].join('\n') + '\n');
    expect(code).toBe(1);
    const lines = stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1 + 20 + 1);
    expect(lines[20]).toBe(`  ${join(dir, 'many.csv')} line 21: position "0" is not a whole number of 1 or more`);
    expect(lines[21]).toBe(`  ${join(dir, 'many.csv')}: and 5 more like the above`);
  });

  it('refuses a misspelt column with what it meant, names the others it ignores', async () => {
    const misspelt = await importing('misspelt', `${header.replace('position', 'postion')}\n${row('c1')}\n`);
    expect(misspelt.code).toBe(1);
    expect(misspelt.stderr).toBe(
      `aea: ${join(dir, 'misspelt.csv')}: column "postion" is not a column of this file: did you mean "position"? (see docs/own-data.md)\n`,
    );
    expect(existsSync(join(dir, 'misspelt-out'))).toBe(false);
    const extra = await importing('extra', `${header},notes\n${row('c1')},kept aside\n`);
    expect(extra.code).toBe(0);
    expect(extra.stdout).toContain(
      "ignored columns (none of the file's; docs/own-data.md lists them): extra.csv: notes\n",
    );
  });

  it('refuses a line longer than the reader takes with one clear line, and writes no folder', async () => {
    const { code, stderr } = await importing(
      'huge',
      `${header}\n${row('d1', '2026-03-02T14:05:00Z', `Trailmark,1,${'x'.repeat(3_000_000)}`)}\n`,
    );
    expect(code).toBe(1);
    expect(stderr.split('\n')).toHaveLength(2);
    expect(stderr).toMatch(/^aea: .*huge\.csv: cannot read it: .*Maximum line size of [\d,]+ bytes exceeded/);
    expect(stderr.length).toBeLessThan(1000);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dir, 'huge-out'))).toBe(false);
  });

  it('lists imported answers without themes, sentiments or fan-outs (or citations): those lists are empty', async () => {
    const { code } = await importing(
      'plain',
      [header, row('e1'), row('e2', '2026-03-02T15:00:00Z', 'Summit Co,1,fine')].join('\n') + '\n',
    );
    expect(code).toBe(0);
    const engine = await openEngine({ data: join(dir, 'plain-out') });
    try {
      const [org] = await engine.listOrganizations();
      const window = { category_id: org!.categories[0]!.id, start_date: '2026-03-02', end_date: '2026-03-02' };
      const v2 = (await engine.org(org!.id).report('promptAnswers')({
        ...window,
        include: ['mentions', 'citations', 'search_queries'],
      })) as { data: Record<string, unknown>[] };
      expect(v2.data.map((a) => [a.mentions, a.citations, a.search_queries]).sort()).toEqual([
        [['Summit Co'], [], []],
        [['Trailmark'], [], []],
      ]);
      const v1 = (await engine.org(org!.id).report('promptAnswersV1')({
        ...window,
        end_date: '2026-03-03',
        include: { themes: true, sentiment_themes: true },
      })) as { data: Record<string, unknown>[] };
      expect(v1.data).toHaveLength(2);
      expect(v1.data.every((a) => Array.isArray(a.themes) && (a.themes as unknown[]).length === 0)).toBe(true);
    } finally {
      await engine.close();
    }
    const checked = await aeaInProcess(['check', join(dir, 'plain-out')]);
    expect(checked.stdout).toContain('/v2/prompts/answers, /v1/prompts/answers answer without it, with empty lists');
  });

  it('--append adds a second organization to the folder: both answer, shared models once, the same one twice refused', async () => {
    const out = join(dir, 'two');
    const first = await aeaInProcess([
      'import',
      join(dir, 'answers.csv'),
      '--citations',
      join(dir, 'citations.csv'),
      '--org',
      'Trailmark Outdoor',
      '--owned',
      'Trailmark',
      '--out',
      out,
    ]);
    expect(first.code).toBe(0);
    await writeFile(
      join(dir, 'second.csv'),
      [
        header,
        row('s1', '2026-03-04T10:00:00Z', 'Summit Co,1,yes'),
        `s2,2026-03-04T11:00:00Z,Rain jackets,best rain jacket,Gemini,DE,Summit Co,2,yes`,
      ].join('\n') + '\n',
    );
    const second = await aeaInProcess([
      'import',
      join(dir, 'second.csv'),
      '--org',
      'Summit Gear',
      '--owned',
      'Summit Co',
      '--out',
      out,
      '--append',
    ]);
    expect(second.code, second.stderr).toBe(0);
    const engine = await openEngine({ data: out });
    try {
      const orgs = await engine.listOrganizations();
      expect(orgs.map((o) => o.name).sort()).toEqual(['Summit Gear', 'Trailmark Outdoor']);
      const models = await engine.core.pool.use((c) =>
        c.runAndReadAll(`SELECT name, count(*) FROM models GROUP BY name ORDER BY name`),
      );
      expect(models.getRowsJS().map((r) => [String(r[0]), Number(r[1])])).toEqual([
        ['ChatGPT', 1],
        ['Gemini', 1],
        ['Perplexity', 1],
      ]);
      for (const org of orgs) {
        const category = org.categories[0]!.id;
        const answer = (await engine.org(org.id).report('visibility')({
          category_id: category,
          start_date: '2026-03-01',
          end_date: '2026-03-05',
          scope: 'all',
        })) as { data: unknown[] };
        expect(answer.data.length, org.name).toBeGreaterThan(0);
      }
      const trailmark = orgs.find((o) => o.name === 'Trailmark Outdoor')!;
      expect(trailmark.categories.map((c) => c.name)).toEqual(['Hiking boots']);
      expect(
        orgs
          .find((o) => o.name === 'Summit Gear')!
          .categories.map((c) => c.name)
          .sort(),
      ).toEqual(['Hiking boots', 'Rain jackets']);
    } finally {
      await engine.close();
    }
    expect((await aeaInProcess(['check', out])).stdout).not.toMatch(/^error/m);
    const again = await aeaInProcess([
      'import',
      join(dir, 'second.csv'),
      '--org',
      'Summit Gear',
      '--out',
      out,
      '--append',
    ]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already holds this organization');
    const nowhere = await aeaInProcess([
      'import',
      join(dir, 'second.csv'),
      '--org',
      'Summit Gear',
      '--out',
      join(dir, 'nowhere'),
      '--append',
    ]);
    expect(nowhere.stderr).toContain('holds no dataset to append to');
  });
});
