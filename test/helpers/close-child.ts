import { openEngine } from '../../src/open-engine.ts';

/**
 * Opens the engine on a dataset, starts many report calls (more than the pool has connections), closes
 * the engine while they run and prints how each settled; then the process must exit on its own.
 */
const engine = await openEngine({ data: process.argv[2]!, rollups: false });
const [org] = await engine.listOrganizations();
const acme = engine.org(org!.id);
const calls = org!.categories.flatMap((c) =>
  Array.from({ length: 4 }, (_, i) =>
    acme.reports
      .visibility({
        category_id: c.id,
        start_date: '2025-01-01',
        end_date: '2026-10-31',
        group_by: i % 2 ? ['prompt', 'date'] : ['prompt'],
      })
      .then(
        () => 'answered',
        (e: Error) => e.message,
      ),
  ),
);
await new Promise((r) => setTimeout(r, 20));
await engine.close();
const outcomes = await Promise.all(calls);
process.stdout.write(`closed ${outcomes.length} ${outcomes.filter((o) => o === 'answered').length}\n`);
