import { describe, expect, it } from 'vitest';
import { field, object, value } from '../src/query/row-shape.ts';
import { sql } from '../src/query/sql.ts';
import type { ShapedReport } from '../src/reports/rows-query.ts';
import { comparedAnswer } from '../src/reports/extensions/compared-answer.ts';

/** compare over whole answers compares only top-level scalar fields, and says which field it cannot. */

const report: ShapedReport = {
  ctes: sql`r AS (SELECT 1 AS unit)`,
  shape: {
    fields: [
      field('count', value('n', 'integer')),
      field('models', value('models', { list: 'text' })),
      field('asset', object([field('id', value('asset_id', 'text'))])),
    ],
  },
  rows: () => sql`SELECT * FROM r`,
  total: sql`SELECT 1`,
};
const window = { startDate: '2026-01-01', endDate: '2026-01-31' };

describe('the metrics compared', () => {
  it('are top-level scalar fields of the answer', () => {
    const compare = (metric: string) => () =>
      comparedAnswer(report, report, { keys: [], metrics: [metric], date: null }, { now: window, then: window });
    expect(compare('count')).not.toThrow();
    for (const metric of ['missing', 'models', 'asset', 'n'])
      expect(compare(metric)).toThrow(`compare: ${metric} is not a scalar field of the answer`);
  });
});
