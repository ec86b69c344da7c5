import fc from 'fast-check';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { bestSection } from '../src/resources/knowledge-bases/snippets.ts';

type Section = { section: number; body: string };

const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];
const terms = (text: string) =>
  tokenize(text)
    .map((t) => t.toLowerCase())
    .filter((t) => t !== '');

/**
 * The rule, with every section tokenized (MiniSearch's tokenizer, as the index's words were first defined):
 * the most distinct query words, then the most occurrences, then the earliest. `prefilter` is the former
 * shortcut, which tokenized only sections holding a query word as a substring.
 */
function reference(query: string, sections: readonly Section[], prefilter = false): Section | undefined {
  const wanted = new Set(terms(query));
  let best: { section: number; body: string; distinct: number; hits: number } | undefined;
  for (const s of sections) {
    const lower = s.body.toLowerCase();
    if (prefilter && best && ![...wanted].some((w) => lower.includes(w))) continue;
    const found = terms(s.body).filter((t) => wanted.has(t));
    const distinct = new Set(found).size;
    if (!best || distinct > best.distinct || (distinct === best.distinct && found.length > best.hits))
      best = { ...s, distinct, hits: found.length };
  }
  return best && { section: best.section, body: best.body };
}

// Words that are substrings of one another, case and sigma forms, astral letters and an astral separator (U+10100).
const vocabulary = [
  'w17',
  'w170',
  'W17',
  'xw17',
  'café',
  'CAFÉ',
  'ΟΔΟΣ',
  'οδος',
  'οδοσ',
  'İstanbul',
  'i̇stanbul',
  '🍎',
  '🍎🍎',
  '東京',
  'a',
  'ab',
  'straße',
];
const separators = [' ', '. ', ', ', '\n', "'", '𐄀', '\u00a0', '-', ''];
const body = fc
  .array(fc.tuple(fc.constantFrom(...vocabulary), fc.constantFrom(...separators)), { maxLength: 12 })
  .map((pairs) => pairs.map(([w, s]) => w + s).join(''));

describe('best section', () => {
  it('chooses the section the rule chooses with every section tokenized, for any sections and query', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(body, { maxLength: 8 }),
        fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 3 }),
        async (bodies, query) => {
          const sections = bodies.map((b, i) => ({ section: i + 1, body: b }));
          const q = query.join(' ');
          expect(await bestSection(q, sections)).toEqual(reference(q, sections));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('skips a section where the word appears only inside longer words, and finds it beside punctuation', async () => {
    const sections = [
      { section: 1, body: 'nothing here' },
      { section: 2, body: 'w170 xw17 w17x' },
      { section: 3, body: '(W17), and w17.' },
    ];
    expect(await bestSection('w17', sections)).toEqual(sections[2]);
    expect(await bestSection('w17', sections.slice(0, 2))).toEqual(sections[0]);
  });

  it('finds a word whose capital sigma lower-cases differently in context, which the former substring shortcut missed', async () => {
    // Lower-cased whole, "ΟΔΟΣ'Α" ends its first word in σ; the word alone (as the query and the tokens are lower-cased) ends in ς.
    const sections = [
      { section: 1, body: 'nothing here' },
      { section: 2, body: "ΟΔΟΣ'Α" },
    ];
    expect(await bestSection('ΟΔΟΣ', sections)).toEqual(sections[1]);
    expect(reference('ΟΔΟΣ', sections)).toEqual(sections[1]);
    expect(reference('ΟΔΟΣ', sections, true)).toEqual(sections[0]);
  });
});
