import type { OrgScope } from '../../src/library/org-scope.ts';

type Call = (scope: OrgScope) => Promise<unknown>;

/** A report request with and without an extension, and the goal for their ratio (or the extended one's time). */
export interface ExtensionCase {
  readonly name: string;
  readonly goal: { readonly ratio?: number; readonly ms?: number };
  readonly plain: Call;
  readonly extended: Call;
}

/**
 * The extension cases (docs/extensions.md): each extension on each report family it applies to, over
 * September 2026 of the dataset's first category and domain. Goals from the issue: ≤ 1.3× the plain
 * request, compare ≤ 2.1× (it reads two windows), explain ≤ 5 ms.
 */
export function extensionCases(category: string, domain: string): ExtensionCase[] {
  const v2 = { category_id: category, start_date: '2026-09-01', end_date: '2026-09-30', scope: 'all', limit: 10 };
  const v2Days = { ...v2, group_by: ['date', 'model'], limit: 50 };
  const v1 = {
    category_id: category,
    start_date: '2026-09-01',
    end_date: '2026-10-01',
    metrics: ['visibility_score', 'share_of_voice', 'executions'],
    dimensions: ['model', 'date'],
    date_interval: 'day',
    pagination: { limit: 1000, offset: 0 },
  };
  const traffic = {
    domain,
    start_date: '2026-09-01',
    end_date: '2026-10-01',
    metrics: ['visits'],
    dimensions: ['date', 'referral_source'],
    date_interval: 'day',
    pagination: { limit: 1000, offset: 0 },
  };
  const citations = {
    category_id: category,
    start_date: '2026-09-01',
    end_date: '2026-09-30',
    group_by: ['date'],
    limit: 10,
  };
  const fanouts = {
    category_id: category,
    start_date: '2026-09-01',
    end_date: '2026-09-30',
    group_by: ['date', 'model'],
    metrics: ['total_fanouts', 'fanouts_per_execution'],
    limit: 50,
  };
  const factcheck = {
    category_id: category,
    start_date: '2026-09-01',
    end_date: '2026-09-30',
    group_by: ['date', 'model'],
    limit: 50,
  };
  const channels = {
    category_id: category,
    start_date: '2026-09-01',
    end_date: '2026-09-30',
    group_by: ['channel'],
    interval: 'week',
    limit: 10,
  };
  const r = (s: OrgScope) => ({
    visibility: s.report('visibility'),
    visibilityV1: s.report('visibilityV1'),
    referrals: s.report('referrals'),
    citations: s.report('citations'),
    queryFanouts: s.report('queryFanouts'),
    factcheck: s.report('factcheck'),
    youtubeChannels: s.report('youtubeChannels'),
  });
  return [
    {
      name: 'explain: v2 visibility page',
      goal: { ms: 5 },
      plain: (s) => r(s).visibility!(v2),
      extended: (s) => r(s).visibility!(v2, { explain: true }),
    },
    {
      name: 'explain: v1 visibility page',
      goal: { ms: 5 },
      plain: (s) => r(s).visibilityV1!(v1),
      extended: (s) => r(s).visibilityV1!(v1, { explain: true }),
    },
    {
      name: 'fill=zero: v1 visibility, model × day',
      goal: { ratio: 1.3 },
      plain: (s) => r(s).visibilityV1!(v1),
      extended: (s) => r(s).visibilityV1!(v1, { fill: 'zero' }),
    },
    {
      name: 'fill=zero: referrals, day × source',
      goal: { ratio: 1.3 },
      plain: (s) => r(s).referrals!(traffic),
      extended: (s) => r(s).referrals!(traffic, { fill: 'zero' }),
    },
    {
      name: 'compare=previous_period: v1 visibility',
      goal: { ratio: 2.1 },
      plain: (s) => r(s).visibilityV1!(v1),
      extended: (s) => r(s).visibilityV1!(v1, { compare: 'previous_period' }),
    },
    {
      name: 'compare=previous_year: referrals',
      goal: { ratio: 2.1 },
      plain: (s) => r(s).referrals!(traffic),
      extended: (s) => r(s).referrals!(traffic, { compare: 'previous_year' }),
    },
    {
      name: 'fill + compare + components: v1 visibility',
      goal: { ratio: 2.1 },
      plain: (s) => r(s).visibilityV1!(v1),
      extended: (s) => r(s).visibilityV1!(v1, { fill: 'zero', compare: 'previous_period', components: true }),
    },
    {
      name: 'components: v1 visibility',
      goal: { ratio: 1.3 },
      plain: (s) => r(s).visibilityV1!(v1),
      extended: (s) => r(s).visibilityV1!(v1, { components: true }),
    },
    {
      name: 'fill=zero: v2 visibility by day',
      goal: { ratio: 1.3 },
      plain: (s) => r(s).visibility!(v2Days),
      extended: (s) => r(s).visibility!(v2Days, { fill: 'zero' }),
    },
    {
      name: 'compare=previous_period: v2 visibility by day',
      goal: { ratio: 2.1 },
      plain: (s) => r(s).visibility!(v2Days),
      extended: (s) => r(s).visibility!(v2Days, { compare: 'previous_period' }),
    },
    {
      name: 'components: v2 visibility page',
      goal: { ratio: 1.3 },
      plain: (s) => r(s).visibility!(v2),
      extended: (s) => r(s).visibility!(v2, { components: true }),
    },
    {
      name: 'compare=previous_period: v2 citations by day',
      goal: { ratio: 2.1 },
      plain: (s) => r(s).citations!(citations),
      extended: (s) => r(s).citations!(citations, { compare: 'previous_period' }),
    },
    {
      name: 'fill=zero: v2 citations by day',
      goal: { ratio: 1.3 },
      plain: (s) => r(s).citations!(citations),
      extended: (s) => r(s).citations!(citations, { fill: 'zero' }),
    },
    {
      name: 'fill=zero: v2 fan-outs, day × model',
      goal: { ratio: 1.3 },
      plain: (s) => r(s).queryFanouts!(fanouts),
      extended: (s) => r(s).queryFanouts!(fanouts, { fill: 'zero' }),
    },
    {
      name: 'components: v2 fan-outs, day × model',
      goal: { ratio: 1.3 },
      plain: (s) => r(s).queryFanouts!(fanouts),
      extended: (s) => r(s).queryFanouts!(fanouts, { components: true }),
    },
    {
      name: 'components: v2 fact-check, day × model',
      goal: { ratio: 1.3 },
      plain: (s) => r(s).factcheck!(factcheck),
      extended: (s) => r(s).factcheck!(factcheck, { components: true }),
    },
    {
      name: 'compare=previous_year: v2 channels by week',
      goal: { ratio: 2.1 },
      plain: (s) => r(s).youtubeChannels!(channels),
      extended: (s) => r(s).youtubeChannels!(channels, { compare: 'previous_year' }),
    },
    {
      name: 'fill=zero: v2 channels by week',
      goal: { ratio: 1.3 },
      plain: (s) => r(s).youtubeChannels!(channels),
      extended: (s) => r(s).youtubeChannels!(channels, { fill: 'zero' }),
    },
  ];
}
