/**
 * Knowledge-base search at its bounds: one knowledge base filled to 32 MiB of text, then a first search (which
 * builds the index), a top_k 100 search and one of full pages, while `monitorEventLoopDelay` measures how long
 * the event loop was held. Prints one JSON line.
 *
 *   npx tsx test/load/kb-stall.ts                 documents of 500,000 characters (the longest allowed): 65
 *   npx tsx test/load/kb-stall.ts --docs 10000    the most documents allowed, about 3,300 characters each
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { openEngine } from '../../src/open-engine.ts';
import { maxKbDocuments, maxKbTextBytes } from '../../src/limits.ts';
import { sampleDir } from '../../src/generate/sample.ts';

const engine = await openEngine({ data: sampleDir, timeBudgetMs: 0 });
const org = (await engine.listOrganizations())[0]!;
const scope = engine.org(org.id);
const kb = ((await scope.resources.knowledgeBases!({})).data as { id: string }[])[0]!.id;
const { values } = parseArgs({ options: { docs: { type: 'string' } } });
const [held] = await engine.core.state.read(async (conn) =>
  (
    await conn.runAndReadAll(
      'SELECT count(*)::INTEGER, coalesce(sum(strlen(text)), 0)::BIGINT FROM state.kb_documents WHERE knowledge_base_id = $kb',
      { kb },
    )
  ).getRowsJS(),
);
const [heldDocs, heldBytes] = [Number(held![0]), Number(held![1])];
const docs = values.docs
  ? Math.min(Number(values.docs), maxKbDocuments - heldDocs)
  : Math.floor((maxKbTextBytes - heldBytes) / 500_000);
const docChars = Math.min(500_000, Math.floor((maxKbTextBytes - heldBytes) / docs));
// Words drawn from a vocabulary of 20,000, in paragraphs, so the index holds realistic postings.
await engine.core.state.transaction((conn) =>
  conn.run(
    `INSERT INTO state.kb_documents
     SELECT uuid(), $org, $kb, 'load/doc-' || d || '.md',
            left(string_agg(CASE WHEN w % 60 = 59 THEN 'w' || (hash(d * 1000003 + w) % 20000) || E'\\n\\n' ELSE 'w' || (hash(d * 1000003 + w) % 20000) || ' ' END, '' ORDER BY w), ${docChars}),
            []::VARCHAR[], now(), now()
     FROM range(${docs}) a(d), range(${Math.ceil(docChars / 6)}) b(w) GROUP BY d`,
    { org: org.id, kb },
  ),
);
const h = monitorEventLoopDelay({ resolution: 5 });
const run = async (label: string, body: object) => {
  h.reset();
  h.enable();
  const started = performance.now();
  const answer = (await scope.resources.searchKnowledgeBase!({ params: { knowledge_base_id: kb }, body })) as {
    data: unknown[];
  };
  const ms = performance.now() - started;
  h.disable();
  return {
    label,
    ms: Math.round(ms),
    results: answer.data.length,
    loopMaxMs: Math.round(h.max / 1e6),
    loopP99Ms: Math.round(h.percentile(99) / 1e6),
    rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20),
  };
};
const runs = [
  await run('first search (builds the index)', { query: 'w17 w4242 w999', top_k: 10 }),
  await run('top_k 100', { query: 'w17 w4242 w999 w123', top_k: 100 }),
  await run('top_k 100, full pages', { query: 'w17 w4242', top_k: 100, return_full_page: true }),
];
console.log(
  JSON.stringify({
    docs: docs + heldDocs,
    textMiB: +((docs * docChars + heldBytes) / 2 ** 20).toFixed(2),
    docChars,
    runs,
  }),
);
await engine.close();
