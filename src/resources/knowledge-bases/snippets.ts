import { loopTurn } from '../../query/loop-turns.ts';
import { words } from '../../knowledge/search-index.ts';

const separatorChar = /^[\n\r\p{Z}\p{P}]$/u;

const surrogate = (code: number, high: boolean) => code >= (high ? 0xd800 : 0xdc00) && code <= (high ? 0xdbff : 0xdfff);

/** Whether the code point that ends at `i` (when `before`) or starts there is a word separator, or there is none. */
function boundary(text: string, i: number, before: boolean): boolean {
  if (before ? i === 0 : i === text.length) return true;
  const pair = before && i >= 2 && surrogate(text.charCodeAt(i - 1), false) && surrogate(text.charCodeAt(i - 2), true);
  return separatorChar.test(String.fromCodePoint(text.codePointAt(before ? i - (pair ? 2 : 1) : i)!));
}

/** Whether a text holds `word` with a separator or an end on each side. */
function holdsWord(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1))
    if (boundary(text, at, true) && boundary(text, at + word.length, false)) return true;
  return false;
}

/**
 * Lower-casing a whole text maps each of its words as lower-casing the word alone does (separators have no case),
 * but for a capital sigma: its form, σ or ς, depends on its neighbours ("ΟΔΟΣ'Α" gives σ, the word "ΟΔΟΣ" alone ς).
 * Both sides are compared with ς folded into σ, so a section holding a query word is never skipped.
 */
const foldSigma = (text: string) => text.replaceAll('ς', 'σ');

/**
 * The section that answers the query best: the most distinct query terms, then the most occurrences
 * of them, then the earliest. Sections are numbered from 1, as `kb_sections` numbers them. A document of
 * 500,000 characters has about 1,400 sections, so the loop yields to the event loop every `sliceMs`.
 */
export async function bestSection(
  query: string,
  sections: readonly { section: number; body: string }[],
): Promise<{ section: number; body: string } | undefined> {
  const wanted = new Set(words(query));
  const sigma = [...wanted].some((w) => /[σς]/.test(w));
  const looked = [...wanted].map((w) => (sigma ? foldSigma(w) : w));
  let best: { section: number; body: string; distinct: number; hits: number } | undefined;
  for (const s of sections) {
    await loopTurn();
    // A section holding none of the terms as a whole word scores 0 without being tokenized: most sections of a long document.
    if (best) {
      const lower = sigma ? foldSigma(s.body.toLowerCase()) : s.body.toLowerCase();
      if (!looked.some((w) => holdsWord(lower, w))) continue;
    }
    const found = words(s.body).filter((t) => wanted.has(t));
    const distinct = new Set(found).size;
    if (!best || distinct > best.distinct || (distinct === best.distinct && found.length > best.hits))
      best = { ...s, distinct, hits: found.length };
  }
  return best && { section: best.section, body: best.body };
}
