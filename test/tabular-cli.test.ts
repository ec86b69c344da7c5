import { beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import type { OrganizationListing } from '../src/engine/organizations.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { join } from 'node:path';
import { aeaInProcess } from './helpers/cli.ts';
import { tempDir } from './helpers/tmp.ts';

let state: string;

let org: OrganizationListing;
beforeAll(async () => {
  state = join(await tempDir(), 'state.duckdb');
  const engine = await openEngine({ data: sampleDir });
  try {
    org = (await engine.listOrganizations())[0]!;
  } finally {
    engine.close();
  }
});

describe('aea query on the tabular reports', () => {
  it('prints the tabular body of a traffic report', async () => {
    const body = {
      domain: org.domains[0]!.name,
      start_date: '2026-03-01',
      end_date: '2026-04-01',
      metrics: ['count', 'citations', 'last_visit'],
      dimensions: ['bot_type'],
      order_by: { bot_type: 'asc' },
    };
    const out = await aeaInProcess([
      'query',
      '/v2/reports/bots',
      '--data',
      sampleDir,
      '--state',
      state,
      '--org',
      org.id,
      '--body',
      JSON.stringify(body),
    ]);
    expect(out.code).toBe(0);
    const parsed = JSON.parse(out.stdout) as {
      info: { total_rows: number; query: { dimensions: string[] } };
      data: { metrics: number[]; dimensions: string[] }[];
    };
    expect(parsed.info.query.dimensions).toEqual(['bot_type']);
    expect(parsed.data.map((r) => r.dimensions[0])).toEqual(['ai_agent', 'ai_assistant', 'ai_training', 'index']);
    expect(parsed.info.total_rows).toBe(4);
    expect(parsed.data.find((r) => r.dimensions[0] === 'ai_assistant')!.metrics[1]).toBe(
      parsed.data.find((r) => r.dimensions[0] === 'ai_assistant')!.metrics[0],
    );
  });

  it('prints a v1 stream whose every event carries JSON: {query, total_rows}, then rows', async () => {
    const body = {
      category_id: org.categories[0]!.id,
      start_date: '2026-03-01',
      end_date: '2026-04-01',
      metrics: ['count', 'citation_share'],
      dimensions: ['model'],
    };
    const out = await aeaInProcess([
      'query',
      '/v1/reports/citations/stream',
      '--data',
      sampleDir,
      '--state',
      state,
      '--org',
      org.id,
      '--body',
      JSON.stringify(body),
    ]);
    expect(out.code).toBe(0);
    const data = out.stdout
      .split('\n\n')
      .filter(Boolean)
      .map(
        (e) =>
          JSON.parse(
            e
              .split('\n')
              .find((l) => l.startsWith('data: '))!
              .slice(6),
          ) as Record<string, unknown>,
      );
    expect(Object.keys(data[0]!).sort()).toEqual(['fingerprint', 'query', 'total_rows']);
    expect(data.length).toBe((data[0]!.total_rows as number) + 1);
    expect(data.length).toBeGreaterThan(3);
    for (const row of data.slice(1)) expect(Object.keys(row)).toEqual(['metrics', 'dimensions']);
  });
});
