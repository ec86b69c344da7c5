import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { ids } from './fixtures/insights.ts';
import { tabularFixture } from './fixtures/tabular.ts';

const fixture = tabularFixture();
let forward: Engine;
let backward: Engine;
beforeAll(async () => {
  forward = await openFixture(fixture);
  // The same rows in the opposite physical order: a sum that follows scan order would add them the other way round.
  backward = await openFixture({
    ...fixture,
    citations: [...fixture.citations!].reverse(),
    executions: [...fixture.executions!].reverse(),
  });
});
afterAll(() => Promise.all([forward.close(), backward.close()]));

describe('identical requests give bit-identical answers', () => {
  it('v1 citations: citation_share does not depend on the order rows are scanned in', async () => {
    const window = {
      category_id: ids.cat1,
      start_date: '2026-01-01',
      end_date: '2027-01-01',
      metrics: ['citation_share', 'share_of_voice', 'count'],
    } as const;
    for (const dimensions of [['root_domain'], ['hostname'], ['citation_category'], ['url'], []]) {
      const body = { ...window, dimensions };
      const a = JSON.stringify(await forward.org(ids.org1).report('citationsV1')(body));
      expect(JSON.parse(a).data.length).toBeGreaterThan(0);
      expect({ dimensions, answer: JSON.stringify(await backward.org(ids.org1).report('citationsV1')(body)) }).toEqual({
        dimensions,
        answer: a,
      });
    }
  });
});
