import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderDataModel } from '../src/model/render-doc.ts';
import { metrics } from '../src/model/metrics.ts';

describe('docs', () => {
  it('docs/data-model.md is the rendering of src/model (run `npm run docs:model` after changing the contract)', () => {
    expect(readFileSync(new URL('../docs/data-model.md', import.meta.url), 'utf8')).toBe(renderDataModel());
  });

  it('defines every metric the seed names', () => {
    const names = metrics.map((m) => m.name).join(' | ');
    for (const m of [
      'visibility_score',
      'share_of_voice',
      'average_position',
      'rank',
      'mentions_count',
      'executions',
      'count (citations)',
      'citation_share',
      'first_cited_at',
      'position1_percentage',
      'visibility_rank',
      'channel count',
      'videos',
      'channel citation_share',
      'fact-check occurrence',
      'accuracy',
      'bot count',
      'bot citations, indexing, training',
      'last_visit',
      'visits',
      'positive_sentiment',
      'total_fanouts',
      'fanouts_per_execution',
      'query_variations',
    ]) {
      expect(names).toContain(m);
    }
  });
});
