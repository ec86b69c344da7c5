import { Slicer } from '../../engine/slicer.ts';
import { words } from '../../knowledge/search-index.ts';

/**
 * The section that answers the query best: the most distinct query terms, then the most occurrences
 * of them, then the earliest. Sections are numbered from 1, as `kb_sections` numbers them. A document of
 * 500,000 characters may need most of its sections tokenized (when a query word is a common substring), so
 * the loop yields to the event loop every `sliceMs`.
 */
export async function bestSection(query: string, sections: readonly { section: number; body: string }[]): Promise<{ section: number; body: string } | undefined> {
  const wanted = new Set(words(query));
  const slicer = new Slicer();
  let best: { section: number; body: string; distinct: number; hits: number } | undefined;
  for (const s of sections) {
    await slicer.tick();
    // A section holding none of the terms even as a substring scores 0 without being tokenized: most sections of a long document.
    const lower = s.body.toLowerCase();
    if (best && ![...wanted].some((w) => lower.includes(w))) continue;
    const found = words(s.body).filter((t) => wanted.has(t));
    const distinct = new Set(found).size;
    if (!best || distinct > best.distinct || (distinct === best.distinct && found.length > best.hits)) best = { ...s, distinct, hits: found.length };
  }
  return best && { section: best.section, body: best.body };
}
