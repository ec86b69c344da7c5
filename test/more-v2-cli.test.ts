import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import { type Engine } from '../src/library/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { aea } from './helpers/cli.ts';

let engine: Engine;
let org: string;
let category: string;
beforeAll(async () => {
  engine = await openEngine({ data: sampleDir });
  const orgs = await engine.listOrganizations();
  org = orgs[0]!.id;
  category = orgs[0]!.categories[0]!.id;
});
afterAll(() => engine.close());

describe('aea query on the new v2 reports', () => {
  it('prints the citations stream exactly as the library streams it', async () => {
    const body = {
      category_id: category,
      start_date: '2026-01-01',
      end_date: '2026-03-31',
      group_by: ['page'],
      metrics: ['count', 'first_cited_at'],
      max_results: 3,
    } as const;
    const { code, stdout } = await aea([
      'query',
      '/v2/reports/citations/stream',
      '--data',
      sampleDir,
      '--org',
      org,
      '--body',
      JSON.stringify(body),
    ]);
    expect(code).toBe(0);
    const events = stdout.split('\n\n').filter(Boolean);
    const library = [];
    for await (const e of engine.org(org).reports.citationsStream(body))
      library.push(`event: ${e.event}\ndata: ${JSON.stringify(e.data)}`);
    expect(events).toEqual(library);
    expect(events).toHaveLength(4);
    expect(events[1]).toMatch(
      /^event: result\ndata: \{"page":"https:\/\/[^"]+","count":\d+,"first_cited_at":"20\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ"\}$/,
    );
  });
});
