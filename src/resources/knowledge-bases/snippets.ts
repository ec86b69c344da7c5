import MiniSearch from 'minisearch';

const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];
const terms = (text: string) => tokenize(text).map((t) => t.toLowerCase()).filter((t) => t !== '');

/**
 * The section that answers the query best: the most distinct query terms, then the most occurrences
 * of them, then the earliest. Sections are numbered from 1, as `kb_sections` numbers them.
 */
export function bestSection(query: string, sections: readonly { section: number; body: string }[]): { section: number; body: string } | undefined {
  const wanted = new Set(terms(query));
  let best: { section: number; body: string; distinct: number; hits: number } | undefined;
  for (const s of sections) {
    // A section holding none of the terms even as a substring scores 0 without being tokenized: most sections of a long document.
    const lower = s.body.toLowerCase();
    if (best && ![...wanted].some((w) => lower.includes(w))) continue;
    const found = terms(s.body).filter((t) => wanted.has(t));
    const distinct = new Set(found).size;
    if (!best || distinct > best.distinct || (distinct === best.distinct && found.length > best.hits)) best = { ...s, distinct, hits: found.length };
  }
  return best && { section: best.section, body: best.body };
}
