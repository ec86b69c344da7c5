import fc from 'fast-check';
import type { FilterCatalog } from '../../src/query/filter-compiler.ts';
import { and, type FilterNode } from '../../src/query/filter-node.ts';
import { ids } from '../fixtures/insights.ts';
import { moreIds } from '../fixtures/more-v2.ts';
import { filterArbitrary, type FieldValuePool } from './filter-arbitrary.ts';

/** Values for every filter field of the v2 reports over the more-v2 fixture: ids, names, near misses. */
export const pools: Record<string, FieldValuePool> = {
  model: { exact: [...ids.models, 'ChatGPT', '', 'nope'], text: ['', 'a', 'GPT'] },
  region: { exact: [...ids.regions, 'Germany', 'Nowhere'], text: ['a', 'STATES'] },
  persona: { exact: [...ids.personas, 'Hiker', ''], text: ['H', 'k'] },
  topic: { exact: [...ids.topics, 'Boots', 'Tents 50%_off', ids.foreign.topic], text: ['%', '_', 'boots'] },
  prompt: { exact: [...ids.prompts, 'Cheap boots'], text: ["'", '%', 'boots', 'BOOTS'] },
  tag: { exact: [...ids.tags, 'alpha', '', 'gamma'], text: ['a'] },
  domain: {
    exact: [
      'acme.example',
      'ACME.example',
      'example',
      'reddit.com',
      'blog.acme.example',
      'notacme.example',
      'www.acme.example',
    ],
    text: ['acme', 'Acme', '.example'],
  },
  page: {
    exact: ['https://acme.example/p', 'https://www.reddit.com/page-1', 'https://www.acme.example/page-2', 'nope'],
    text: ['page-1', 'youtube', 'P'],
  },
  citation_category: { exact: ['owned', 'social', 'earned_media', 'other', 'nope'], text: ['o', 'media'] },
  citation_tag: { exact: ['Forums', 'Press', '', moreIds.tags.forums, moreIds.tags.foreign, 'nope'], text: [] },
  theme: { exact: ['Price', 'Comfort 100%', moreIds.comfort, 'nope'], text: [] },
  claim: { exact: ['too pricey', 'soft', moreIds.claims[2]!, 'nope'], text: [] },
  channel: {
    exact: ['@trailtalk', '@TrailTalk2', '@boots', '@zed_', 'Trail Talk', '@nope'],
    text: ['Trail', 'trail', 'TALK', '%', '_', 'gear'],
  },
  analysis_type: { exact: ['visibility', 'sentiment', 'factcheck', 'accuracy', 'all', 'nope'], text: [] },
};

export const windows = [
  ['2026-02-20', '2026-12-31'],
  ['2026-03-08', '2026-03-09'],
  ['2026-04-01', '2026-06-30'],
] as const;

/** An analysis_type leaf (is one value, or in a list), or none. */
export const typeLeaf: fc.Arbitrary<FilterNode | undefined> = fc.option(
  fc.oneof(
    fc
      .constantFrom(...pools.analysis_type!.exact)
      .map((value) => ({ kind: 'leaf', field: 'analysis_type', op: 'is', value }) as FilterNode),
    fc
      .uniqueArray(fc.constantFrom(...pools.analysis_type!.exact), { minLength: 1, maxLength: 2 })
      .map((value) => ({ kind: 'leaf', field: 'analysis_type', op: 'in', value }) as FilterNode),
  ),
  { nil: undefined },
);

/** A filter that splits into an answer part and a row part by construction: `answer AND row AND extra`, any of them absent. */
export function layeredFilter(
  answerFields: FilterCatalog,
  rowFields: FilterCatalog,
  extra: fc.Arbitrary<FilterNode | undefined> = fc.constant(undefined),
): fc.Arbitrary<FilterNode | undefined> {
  return fc
    .record({
      answer: fc.option(filterArbitrary(answerFields, pools, 2), { nil: undefined }),
      row:
        Object.keys(rowFields).length > 0
          ? fc.option(filterArbitrary(rowFields, pools, 2), { nil: undefined })
          : fc.constant(undefined),
      extra,
    })
    .map(
      ({ answer, row, extra: x }) => and([answer, row, x].filter((c): c is FilterNode => c !== undefined)) ?? undefined,
    );
}
