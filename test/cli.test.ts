import { beforeAll, describe, expect, it } from 'vitest';
import { sampleDir } from '../src/generate/sample.ts';
import type { OrganizationListing } from '../src/engine/organizations.ts';
import { join } from 'node:path';
import { aea, aeaInProcess } from './helpers/cli.ts';
import { tempDir } from './helpers/tmp.ts';

let orgs: OrganizationListing[];
let state: string;
beforeAll(async () => {
  state = join(await tempDir(), 'state.duckdb');
  const out = await aea(['orgs', '--data', sampleDir]);
  expect(out.code).toBe(0);
  orgs = JSON.parse(out.stdout) as OrganizationListing[];
});

describe('aea', () => {
  it('orgs prints every organization with categories, domains and assets', () => {
    expect(orgs.length).toBe(4);
    expect(orgs[0]).toMatchObject({
      id: expect.any(String),
      name: expect.any(String),
      categories: expect.any(Array),
      domains: expect.any(Array),
      assets: expect.any(Array),
    });
  });

  it('query prints the JSON body of a report', async () => {
    const body = {
      category_id: orgs[0]!.categories[0]!.id,
      start_date: '2026-01-01',
      end_date: '2026-01-31',
      scope: 'all',
      limit: 3,
    };
    const out = await aeaInProcess([
      'query',
      '/v2/reports/visibility',
      '--data',
      sampleDir,
      '--state',
      state,
      '--org',
      orgs[0]!.id,
      '--body',
      JSON.stringify(body),
    ]);
    expect(out.code).toBe(0);
    const parsed = JSON.parse(out.stdout) as { info: { count: number }; data: unknown[] };
    expect(parsed.info.count).toBe(3);
    expect(parsed.data.length).toBe(3);
  });

  it('query prints the raw event stream of a /stream path, reading the body from stdin', async () => {
    const body = {
      category_id: orgs[0]!.categories[0]!.id,
      start_date: '2026-01-01',
      end_date: '2026-01-31',
      scope: 'all',
      max_results: 2,
    };
    const out = await aeaInProcess(
      [
        'query',
        '/v2/reports/visibility/stream',
        '--data',
        sampleDir,
        '--state',
        state,
        '--org',
        orgs[0]!.id,
        '--body-file',
        '-',
      ],
      JSON.stringify(body),
    );
    expect(out.code).toBe(0);
    const events = out.stdout.split('\n\n').filter(Boolean);
    expect(events.length).toBe(3);
    expect(events[0]).toMatch(/^event: summary\ndata: \{/);
    expect(events[1]).toMatch(/^event: result\ndata: \{"asset"/);
  });

  it('query exits 2 with the 422 body, and 3 on another organization’s category', async () => {
    const bad = await aea([
      'query',
      '/v2/reports/visibility',
      '--data',
      sampleDir,
      '--state',
      state,
      '--org',
      orgs[0]!.id,
      '--body',
      '{"category_id":"x"}',
    ]);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout).detail[0].loc).toEqual(['body', 'category_id']);
    const malformed = await aeaInProcess([
      'query',
      '/v2/reports/visibility',
      '--data',
      sampleDir,
      '--state',
      state,
      '--org',
      orgs[0]!.id,
      '--body',
      '{nope',
    ]);
    expect(malformed.code).toBe(2);
    expect(JSON.parse(malformed.stdout).detail[0].type).toBe('json_invalid');
    const body = { category_id: orgs[1]!.categories[0]!.id, start_date: '2026-01-01', end_date: '2026-01-31' };
    const foreign = await aeaInProcess([
      'query',
      '/v2/reports/visibility',
      '--data',
      sampleDir,
      '--state',
      state,
      '--org',
      orgs[0]!.id,
      '--body',
      JSON.stringify(body),
    ]);
    expect(foreign.code).toBe(3);
    expect(JSON.parse(foreign.stdout)).toMatchObject({ code: 'forbidden' });
  });
});
