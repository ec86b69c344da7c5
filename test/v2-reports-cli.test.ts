import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import { type Engine } from '../src/library/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { join } from 'node:path';
import { aeaInProcess } from './helpers/cli.ts';
import { tempDir } from './helpers/tmp.ts';

let state: string;

let engine: Engine;
const scopes: Record<'shopping' | 'channels' | 'claims', { org: string; category: string }> = {} as never;
beforeAll(async () => {
  state = join(await tempDir(), 'state.duckdb');
  engine = await openEngine({ data: sampleDir });
  const first = async (table: string, where = 'TRUE') => {
    const rows = await engine.core.pool.use((c) =>
      c.runAndReadAll(`SELECT organization_id, category_id FROM ${table} WHERE ${where} ORDER BY category_id LIMIT 1`),
    );
    const [org, category] = rows.getRowsJS()[0] as string[];
    return { org: org!, category: category! };
  };
  scopes.shopping = await first('shopping_results');
  scopes.channels = await first('citations', "source_type = 'video'");
  scopes.claims = await first('claim_occurrences');
});
afterAll(() => engine.close());

const window = { start_date: '2026-01-01', end_date: '2026-06-30' };
const query = (path: string, scope: { org: string; category: string }, body: object) =>
  aeaInProcess([
    'query',
    path,
    '--data',
    sampleDir,
    '--state',
    state,
    '--org',
    scope.org,
    '--body',
    JSON.stringify({ category_id: scope.category, ...window, ...body }),
  ]);

describe('aea query on the shopping, channels and fact-check claims reports', () => {
  it('prints pages and streams exactly as the REST endpoints would', async () => {
    const shopping = await query('/v2/reports/shopping/products', scopes.shopping, {
      limit: 2,
      include_merchants: true,
    });
    const channels = await query('/v2/reports/social/videoplatform/channels/stream', scopes.channels, {
      group_by: ['channel', 'source_type'],
      max_results: 3,
    });
    const claims = await query('/v2/reports/factcheck/claims', scopes.claims, {
      group_by: ['model'],
      include: ['models'],
      limit: 2,
    });
    expect(shopping.code).toBe(0);
    const page = JSON.parse(shopping.stdout) as {
      info: { count: number; include_merchants: boolean };
      data: { merchants: unknown[] }[];
    };
    expect(page.info).toMatchObject({ count: 2, include_merchants: true });
    expect(page.data[0]!.merchants).toEqual(expect.any(Array));

    expect(channels.code).toBe(0);
    const events = channels.stdout.split('\n\n').filter(Boolean);
    expect(events.length).toBe(4);
    expect(events[0]).toMatch(/^event: summary\ndata: \{"category_id"/);
    expect(events[1]).toMatch(/^event: result\ndata: \{"name":.*"rank":1,"source_type"/);

    expect(claims.code).toBe(0);
    const sections = JSON.parse(claims.stdout) as {
      info: { group_by: string[] };
      data: { model: { name: string }; claims: unknown[] }[];
    };
    expect(sections.info.group_by).toEqual(['model']);
    expect(sections.data).toHaveLength(2);
    expect(sections.data[0]!.model.name).toEqual(expect.any(String));
  });
});
