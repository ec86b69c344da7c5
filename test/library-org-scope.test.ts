import { describe, expect, it } from 'vitest';
import { NotFoundError, openEngine } from '../src/index.ts';
import { sampleDir } from '../src/generate/sample.ts';

describe('engine.org(id)', () => {
  it('keeps one handle per organization of the dataset and none for an unknown id, whose calls are refused', async () => {
    const engine = await openEngine({ data: sampleDir, resultCache: 0 });
    try {
      const orgs = await engine.listOrganizations();
      expect(orgs.length).toBeGreaterThan(1);
      for (const o of orgs) expect(engine.org(o.id)).toBe(engine.org(o.id));
      expect(new Set(orgs.map((o) => engine.org(o.id))).size).toBe(orgs.length);
      const unknown = '00000000-0000-4000-8000-000000000000';
      const stranger = engine.org(unknown);
      expect(engine.org(unknown)).not.toBe(stranger);
      const [org] = orgs;
      const body = {
        category_id: org!.categories[0]!.id,
        start_date: '2026-10-01',
        end_date: '2026-10-31',
        scope: 'all',
      } as const;
      await expect(stranger.reports.visibility(body)).rejects.toBeInstanceOf(NotFoundError);
      const kept = engine.org(org!.id);
      const { info } = await kept.reports.visibility(body);
      expect(info.total_results).toBe(20);
      expect((await engine.org(org!.id).reports.visibility(body)).info).toEqual(info);
    } finally {
      await engine.close();
    }
  });
});
