import { describe, expect, it } from 'vitest';
import { openEngine, ValidationError } from '../src/index.ts';
import { sampleDir } from '../src/generate/sample.ts';

describe('the library as the README shows it', () => {
  it('runs a report and a stream on the bundled sample', async () => {
    const engine = await openEngine({ data: sampleDir });
    try {
      const [org] = await engine.listOrganizations();
      const acme = engine.org(org!.id);
      const body = {
        category_id: org!.categories[0]!.id,
        start_date: '2026-10-01',
        end_date: '2026-10-31',
        scope: 'all',
      } as const;
      const { info, data } = await acme.reports.visibility(body);
      expect(info.total_results).toBe(20);
      expect(data.length).toBe(10);
      const events = [];
      for await (const e of acme.reports.visibilityStream({ ...body, group_by: ['model'] })) events.push(e);
      expect(events[0]!.event).toBe('summary');
      expect(events.length).toBeGreaterThan(20);
      await expect(acme.reports.visibility({ ...body, limit: 0 })).rejects.toBeInstanceOf(ValidationError);
    } finally {
      engine.close();
    }
  });
});
