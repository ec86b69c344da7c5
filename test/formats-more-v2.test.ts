import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { openEngine } from '../src/open-engine.ts';
import { openFixture, type Rows } from './helpers/arrow-fixture.ts';
import { expectSameAnswer, libraryOutputs } from './helpers/format-answers.ts';
import { writeDatasetFolder, type JsonRow, type TypedRead } from './helpers/formats.ts';
import { tempDir } from './helpers/tmp.ts';
import { claimsFixture } from './fixtures/claims.ts';
import { ids } from './fixtures/insights.ts';
import { moreV2Fixture } from './fixtures/more-v2.ts';
import { shoppingFixture } from './fixtures/shopping.ts';

/**
 * The v2 reports whose units hold several rows (shopping products, video-platform channels and videos)
 * and fact-check claims (lists of structs, instants inside them) in every table format: each read back
 * independently equals the JSON answer of the same request, pages and capped streams alike.
 */

const window = { category_id: ids.cat1, start_date: '2026-02-20', end_date: '2026-12-31' };
let dir: string;
const engines: Engine[] = [];

async function datasetEngine(fixture: Rows, name: string): Promise<Engine> {
  const data = join(dir, name);
  await mkdir(data);
  const source = await openFixture(fixture);
  try {
    await writeDatasetFolder(source, data);
  } finally {
    await source.close();
  }
  const engine = await openEngine({ data, clock: () => new Date('2026-12-01T00:00:00Z') });
  engines.push(engine);
  return engine;
}

let products: Engine;
let channels: Engine;
beforeAll(async () => {
  dir = await tempDir('aea-formats-more-');
  products = await datasetEngine({ ...shoppingFixture(), ...claimsFixture() }, 'products');
  channels = await datasetEngine(moreV2Fixture(), 'channels');
});
afterAll(async () => {
  for (const e of engines) await e.close();
});

const cases: { name: string; data: () => Engine; library: string; body: JsonRow }[] = [
  {
    name: 'shopping page by week and topic',
    data: () => products,
    library: 'shoppingProducts',
    body: { ...window, group_by: ['date', 'topic'], interval: 'week', limit: 3 },
  },
  {
    name: 'shopping page with merchants',
    data: () => products,
    library: 'shoppingProducts',
    body: { ...window, include_merchants: true, limit: 50 },
  },
  {
    name: 'shopping stream capped mid-product',
    data: () => products,
    library: 'shoppingProductsStream',
    body: { ...window, group_by: ['topic'], max_results: 5 },
  },
  {
    name: 'channels page crossed with models by month',
    data: () => channels,
    library: 'youtubeChannels',
    body: { ...window, group_by: ['channel', 'model'], interval: 'month', limit: 3 },
  },
  {
    name: 'channels stream capped mid-channel',
    data: () => channels,
    library: 'youtubeChannelsStream',
    body: { ...window, group_by: ['channel', 'source_type'], max_results: 5 },
  },
  {
    name: 'videos stream by source type',
    data: () => channels,
    library: 'youtubeVideosStream',
    body: { ...window, group_by: ['video', 'source_type'] },
  },
  {
    name: 'claims page with every list',
    data: () => products,
    library: 'factcheckClaims',
    body: { ...window, include: ['theme', 'reasoning', 'models', 'evidence', 'citation_sources'], limit: 5 },
  },
  {
    name: 'claims page sectioned by tag',
    data: () => products,
    library: 'factcheckClaims',
    body: { ...window, group_by: ['tag'], include: ['models', 'evidence'] },
  },
  {
    name: 'claims stream',
    data: () => products,
    library: 'factcheckClaimsStream',
    body: { ...window, include: ['models'], max_results: 3 },
  },
];

describe('every format of the shopping, channels, videos and claims reports equals the JSON answer', () => {
  it.each(cases)('$name', async (c) => {
    const { answer, outputs } = await libraryOutputs(c.data().org(ids.org1), c.library, c.body);
    await expectSameAnswer(dir, c.library, answer, outputs);
  });

  it('types evidence instants as timestamps and claim lists as lists of structs', async () => {
    const { outputs } = await libraryOutputs(products.org(ids.org1), 'factcheckClaims', {
      ...window,
      include: ['models', 'evidence'],
    });
    expect((outputs.arrow as TypedRead).types).toMatchObject({
      occurrence: 'Float64',
      models: 'List<Struct<{id:Utf8, name:Utf8, occurrence:Float64}>>',
      evidence: 'List<Struct<{id:Utf8, kb_path:Utf8, kb_snippet:Utf8, source_updated_at:Timestamp<MILLISECOND, UTC>}>>',
    });
  });
});
