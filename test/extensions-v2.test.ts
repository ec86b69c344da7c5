import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { ValidationError } from '../src/errors.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { ids } from './fixtures/insights.ts';
import { moreV2Fixture } from './fixtures/more-v2.ts';
import { claimsFixture } from './fixtures/claims.ts';
import { productIds, shoppingFixture } from './fixtures/shopping.ts';
import { tabularFixture } from './fixtures/tabular.ts';

type Json = Record<string, any>;

/**
 * compare on the v2 reports other than visibility, held to its definition: the two separate answers
 * (the window's and the compared window's) joined in JS on the rows' keys, the date bucket by its place.
 */
const clock = () => new Date('2026-11-22T12:00:00Z');
const engines = {} as Record<'more' | 'shopping' | 'tabular', Engine>;
beforeAll(async () => {
  engines.more = await openFixture(moreV2Fixture(), { cursorSecret: 'cmp', clock });
  // Two of its clusters' themes (Materials, Durability) are not among the category's themes: their ids are NULL.
  const claims = claimsFixture();
  const renamed = {
    ...claims,
    claim_clusters: claims.claim_clusters.map((c, i) => (i === 5 ? { ...c, theme: 'Durability' } : c)),
  };
  engines.shopping = await openFixture({ ...shoppingFixture(), ...renamed }, { cursorSecret: 'cmp', clock });
  // Its searching answers all produced fan-outs, as the contract says (the fan-outs' parts rely on it; more-v2's break it).
  engines.tabular = await openFixture(tabularFixture(), { cursorSecret: 'cmp', clock });
}, 60_000);
afterAll(async () => {
  await engines.more.close();
  await engines.shopping.close();
  await engines.tabular.close();
});

interface Case {
  readonly name: string;
  readonly fixture: 'more' | 'shopping';
  /** Request fields beyond the window, for a random draw. */
  readonly body: fc.Arbitrary<Json>;
  /** The compared fields of a row of this request. */
  readonly metrics: (body: Json) => string[];
  /** Fields that are a row's place in its own window: null on rows of the compared window only. */
  readonly places: readonly string[];
  /** Fields that describe a row (neither keys nor compared). */
  readonly described: readonly string[];
  /** Read page by page: the report's stream does not take these requests. */
  readonly paged?: boolean;
  /** Fields that count rows: 0 in the rows fill adds. */
  readonly counts?: readonly string[];
  /** Requests with the date dimension, for fill (none: the report has no dated rows). */
  readonly dated?: fc.Arbitrary<Json>;
  /** The unit a row belongs to, where a unit holds several rows (a channel’s cells); each row is its own unit otherwise. */
  readonly unitOf?: (row: Json, body: Json) => string;
}

const intervals = fc.constantFrom('day', 'week', 'month');
const groupsOf = (dims: string[], max = 2) => fc.shuffledSubarray(dims, { maxLength: max });

const cases: readonly Case[] = [
  {
    name: 'citations',
    fixture: 'more',
    body: fc.record({
      group_by: groupsOf(['page', 'date', 'model', 'region']),
      interval: intervals,
      metrics: fc.constant(['count', 'citation_share', 'rank']),
      scope: fc.constantFrom('all', 'owned'),
    }),
    metrics: (b) => ['count', 'citation_share', ...(b.metrics?.includes('first_cited_at') ? ['first_cited_at'] : [])],
    places: ['rank'],
    described: [],
    counts: ['count'],
    dated: fc.oneof(
      fc.record({
        group_by: fc.constantFrom(['date'], ['date', 'model'], ['model', 'date']),
        interval: intervals,
        scope: fc.constantFrom('all', 'owned'),
      }),
      fc.record({
        group_by: fc.constant(['date', 'page']),
        interval: intervals,
        metrics: fc.constant(['count', 'citation_share', 'rank', 'first_cited_at']),
      }),
    ),
  },
  {
    name: 'queryFanouts',
    fixture: 'more',
    body: fc.record({
      group_by: fc.constantFrom(['prompt'], ['prompt', 'date'], ['date', 'model'], ['prompt', 'query'], ['region']),
      interval: intervals,
    }),
    metrics: (b) =>
      b.group_by.includes('query')
        ? ['total_fanouts', 'fanouts_per_execution']
        : ['total_fanouts', 'fanouts_per_execution', 'query_variations'],
    places: ['rank'],
    described: [],
    counts: ['total_fanouts', 'query_variations'],
    dated: fc.record({
      group_by: fc.constantFrom(['prompt', 'date'], ['date', 'model'], ['date'], ['date', 'region']),
      interval: intervals,
    }),
  },
  {
    name: 'factcheck',
    fixture: 'more',
    body: fc.record({
      group_by: fc.constantFrom([], ['date'], ['model'], ['date', 'model'], ['theme', 'date'], ['citation']),
      interval: intervals,
    }),
    metrics: () => ['accuracy', 'accurate', 'inaccurate'],
    places: [],
    described: [],
    counts: ['accurate', 'inaccurate'],
    dated: fc.record({
      group_by: fc.constantFrom(['date'], ['date', 'model'], ['theme', 'date']),
      interval: intervals,
    }),
  },
  {
    name: 'factcheck',
    fixture: 'shopping',
    body: fc.record({
      group_by: fc.constantFrom(['theme'], ['theme', 'date'], ['date', 'theme']),
      interval: intervals,
    }),
    metrics: () => ['accuracy', 'accurate', 'inaccurate'],
    places: [],
    described: [],
    counts: ['accurate', 'inaccurate'],
    dated: fc.record({ group_by: fc.constantFrom(['theme', 'date'], ['date', 'theme']), interval: intervals }),
  },
  {
    name: 'sentiment',
    fixture: 'more',
    body: fc.record({
      group_by: groupsOf(['date', 'model', 'theme', 'topic']),
      interval: intervals,
      asset: fc.constantFrom('Acme', 'Brandy'),
    }),
    metrics: () => ['positive_sentiment', 'negative_sentiment'],
    places: ['rank'],
    described: [],
    dated: fc.record({
      group_by: fc.constantFrom(['date'], ['date', 'model'], ['topic', 'date']),
      interval: intervals,
      asset: fc.constantFrom('Acme', 'Brandy'),
    }),
  },
  {
    name: 'videoplatformChannels',
    fixture: 'more',
    body: fc.record({
      group_by: fc.constantFrom(['channel'], ['channel', 'model'], ['source_type']),
      interval: fc.constantFrom(undefined, 'week', 'month'),
    }),
    metrics: () => ['count', 'videos', 'citation_share'],
    places: ['rank'],
    described: [],
    counts: ['count', 'videos'],
    dated: fc.record({
      group_by: fc.constantFrom(['channel'], ['channel', 'model'], ['source_type']),
      interval: intervals,
    }),
    unitOf: (r, b) => JSON.stringify(b.group_by[0] === 'source_type' ? [r.source_type] : [r.name, r.handle, r.url]),
  },
  {
    name: 'videoplatformVideos',
    fixture: 'more',
    body: fc.record({
      group_by: fc.constantFrom(['video'], ['video', 'source_type']),
      interval: fc.constantFrom(undefined, 'month'),
    }),
    metrics: () => ['count', 'citation_share'],
    places: ['rank'],
    // A video is its id: its title, link and channel are those of its citations in each window.
    described: ['name', 'url', 'channel', 'handle', 'video_category'],
    counts: ['count'],
    dated: fc.record({ group_by: fc.constantFrom(['video'], ['video', 'source_type']), interval: intervals }),
    unitOf: (r) => String(r.video_id),
  },
  {
    name: 'shoppingProducts',
    fixture: 'shopping',
    body: fc
      .oneof(
        fc.record({ group_by: groupsOf(['date', 'topic'], 1), interval: intervals }),
        fc.record({ include_merchants: fc.constant(true) }),
        fc.record({ target_product: fc.constantFrom(...productIds), competitor_limit: fc.integer({ min: 1, max: 3 }) }),
      )
      .map((b) => ({ ...b, metrics: ['visibility_score', 'average_position', 'visibility_rank', 'product_rating'] })),
    metrics: () => ['visibility_score', 'average_position'],
    places: ['visibility_rank'],
    described: ['product_rating', 'product_num_reviews', 'product_url', 'product_image_urls', 'merchants'],
    dated: fc.record({
      group_by: fc.constant(['date']),
      interval: intervals,
      metrics: fc.constant(['visibility_score', 'average_position', 'visibility_rank', 'product_rating']),
    }),
    unitOf: (r) => JSON.stringify(r.product),
  },
  {
    name: 'factcheckClaims',
    fixture: 'shopping',
    body: fc.record({ group_by: fc.constantFrom(['model'], ['theme'], ['topic']), include: fc.constant(['theme']) }),
    metrics: () => ['accuracy', 'accurate', 'inaccurate', 'total_claims'],
    places: [],
    described: ['claims'],
    paged: true,
  },
];

const dayMs = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayOf = (text: string) => Date.parse(`${text}T00:00:00Z`);

/** Independently of the engine: the labels of an inclusive window's day, week (Monday) or month buckets, in time order. */
function buckets(start: string, end: string, interval: string): string[] {
  const out = new Set<string>();
  for (let ms = dayOf(start); ms <= dayOf(end); ms += dayMs) {
    const d = new Date(ms);
    out.add(
      interval === 'day'
        ? isoDay(ms)
        : interval === 'week'
          ? isoDay(ms - ((d.getUTCDay() + 6) % 7) * dayMs)
          : `${isoDay(ms).slice(0, 7)}-01`,
    );
  }
  return [...out].sort();
}

/** Every page of a request, as one head (the first page's info) and the rows. */
async function pages(
  engine: Engine,
  name: string,
  body: Json,
  options: Json = {},
): Promise<{ head: Json; rows: Json[] }> {
  const rows: Json[] = [];
  let head: Json | undefined;
  let cursor: string | null = null;
  do {
    const page = (await (engine.org(ids.org1).reports as Json)[name](
      { ...body, ...(cursor ? { cursor } : {}) },
      options,
    )) as Json;
    head ??= page.info;
    rows.push(...page.data);
    cursor = page.info.next_cursor;
  } while (cursor);
  return { head: head!, rows };
}

async function stream(
  engine: Engine,
  name: string,
  body: Json,
  options: Json = {},
): Promise<{ head: Json; rows: Json[] }> {
  const events: Json[] = [];
  for await (const e of (engine.org(ids.org1).reports as Json)[`${name}Stream`](body, options)) events.push(e.data);
  return { head: events[0]!, rows: events.slice(1) };
}

const windowDay = fc
  .integer({ min: dayOf('2026-02-01') / dayMs, max: dayOf('2026-12-20') / dayMs })
  .map((d) => isoDay(d * dayMs));

describe('fill on the v2 reports', () => {
  const dated = cases.filter((c) => c.dated);
  it('is the plain answer, in order, plus a zero row for each bucket of the window a seen key lacks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: dated.length - 1 }).chain((i) => fc.tuple(fc.constant(i), dated[i]!.dated!)),
        windowDay,
        fc.integer({ min: 1, max: 120 }),
        async ([i, extra], start, days) => {
          const c = dated[i]!;
          const end = isoDay(dayOf(start) + (days - 1) * dayMs);
          const body: Json = { category_id: ids.cat1, start_date: start, end_date: end, ...extra };
          const engine = engines[c.fixture];
          const filled = await stream(engine, c.name, body, { fill: 'zero' });
          const plain = await stream(engine, c.name, body);
          const metrics = c.metrics(body);
          const notKeys = new Set([...metrics, ...c.places, ...c.described, 'date']);
          const keyOf = (r: Json) => JSON.stringify(Object.entries(r).filter(([k]) => !notKeys.has(k)));
          const has = new Set(plain.rows.map((r) => `${keyOf(r)}|${r.date}`));
          const expected: Json[] = [];
          const seen = new Map<string, Json>();
          for (const r of plain.rows) if (!seen.has(keyOf(r))) seen.set(keyOf(r), r);
          for (const [k, r] of seen) {
            for (const b of buckets(start, end, body.interval)) {
              if (has.has(`${k}|${b}`)) continue;
              expected.push(
                Object.fromEntries(
                  Object.entries(r).map(([f, v]) => [
                    f,
                    f === 'date'
                      ? b
                      : (c.counts ?? []).includes(f)
                        ? 0
                        : [...metrics, ...c.places].includes(f)
                          ? null
                          : v,
                  ]),
                ),
              );
            }
          }
          // The plain rows keep their order: they are the filled answer without the added rows.
          const plainKeys = new Set(plain.rows.map((r) => JSON.stringify(r)));
          expect(filled.rows.filter((r) => has.has(`${keyOf(r)}|${r.date}`))).toEqual(plain.rows);
          const added = filled.rows.filter((r) => !has.has(`${keyOf(r)}|${r.date}`));
          expect(added.map((r) => JSON.stringify(r)).sort()).toEqual(expected.map((r) => JSON.stringify(r)).sort());
          expect(added.every((r) => !plainKeys.has(JSON.stringify(r)))).toBe(true);
          // Added rows follow their unit's own rows; units stay whole and in their order.
          const unitOf = c.unitOf ?? ((_: Json) => null);
          const units: string[] = [];
          const addedIn = new Set<string>();
          filled.rows.forEach((r, at) => {
            const u = unitOf(r, body) ?? `row ${at}`;
            if (units.at(-1) !== u) {
              expect(units, 'a unit’s rows are contiguous').not.toContain(u);
              units.push(u);
            }
            const isAdded = !has.has(`${keyOf(r)}|${r.date}`);
            if (isAdded) addedIn.add(u);
            else expect(addedIn.has(u), 'a plain row after an added row of its unit').toBe(false);
          });
          if (!c.unitOf) expect(filled.rows.slice(0, plain.rows.length)).toEqual(plain.rows);
          // Added rows come by their unit's place, then their key's first plain row, then their bucket.
          const firstAt = new Map<string, number>();
          filled.rows.forEach((r, at) => {
            if (has.has(`${keyOf(r)}|${r.date}`) && !firstAt.has(keyOf(r))) firstAt.set(keyOf(r), at);
          });
          const placeOf = (r: Json, at: number) => {
            const u = unitOf(r, body);
            return [u === null ? 0 : units.indexOf(u), firstAt.get(keyOf(r))!, String(r.date), at] as const;
          };
          const places = filled.rows
            .map((r, at) => ({ r, at }))
            .filter(({ r }) => !has.has(`${keyOf(r)}|${r.date}`))
            .map(({ r, at }) => placeOf(r, at));
          const byPlace = [...places].sort(
            (a, b) => a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0),
          );
          expect(places.map((p) => p[3])).toEqual(byPlace.map((p) => p[3]));
        },
      ),
      { numRuns: 60 },
    );
  }, 240_000);

  it('adds no row to an empty answer, the date its only key', async () => {
    const body = { category_id: ids.cat1, start_date: '2024-01-01', end_date: '2024-01-14', group_by: ['date'] };
    for (const name of ['citations', 'queryFanouts', 'factcheck']) {
      expect((await stream(engines.more, name, body)).rows, name).toEqual([]);
      expect((await stream(engines.more, name, body, { fill: 'zero' })).rows, name).toEqual([]);
    }
  });

  it('pages over the filled answer, combines with compare, and refuses requests without the date', async () => {
    const body = {
      category_id: ids.cat1,
      start_date: '2026-05-01',
      end_date: '2026-08-31',
      group_by: ['date', 'model'],
      interval: 'month',
    };
    const whole = await stream(engines.more, 'citations', body, { fill: 'zero' });
    const paged = await pages(engines.more, 'citations', { ...body, limit: 4 }, { fill: 'zero' });
    expect(paged.rows).toEqual(whole.rows);
    expect(paged.head.total_results).toBe(whole.rows.length);
    const both = await stream(engines.more, 'citations', body, { fill: 'zero', compare: 'previous_period' });
    // The head's info (the models answering) is the plain answer's, filled, compared or both.
    const plain = await stream(engines.more, 'citations', body);
    const compared = await stream(engines.more, 'citations', body, { compare: 'previous_period' });
    expect(plain.head.models).toEqual(['', 'ChatGPT', 'Perplexity']);
    for (const extended of [whole, compared, both]) expect(extended.head.models).toEqual(plain.head.models);
    expect(
      both.rows.slice(0, whole.rows.length).map((r) => ({
        ...Object.fromEntries(Object.entries(r).filter(([k]) => !/_(previous|change|change_pct)$/.test(k))),
      })),
    ).toEqual(whole.rows);
    const refusal = await (engines.more.org(ids.org1).reports as Json)
      .citations({ ...body, group_by: ['model'] }, { fill: 'zero' })
      .catch((e: ValidationError) => e.body().detail);
    expect(refusal).toMatchObject([{ loc: ['query', 'fill'], msg: expect.stringContaining('date'), input: 'zero' }]);
    const channels = await (engines.more.org(ids.org1).reports as Json)
      .videoplatformChannels(
        { category_id: ids.cat1, start_date: '2026-05-01', end_date: '2026-08-31' },
        { fill: 'zero' },
      )
      .catch((e: ValidationError) => e.body().detail);
    expect(channels).toMatchObject([{ loc: ['query', 'fill'], msg: expect.stringContaining('interval') }]);
  });
});

describe('compare on the v2 reports', () => {
  it('is the two separate answers joined on the rows’ keys, date buckets by their place; the window’s rows first, in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: cases.length - 1 }).chain((i) => fc.tuple(fc.constant(i), cases[i]!.body)),
        windowDay,
        fc.integer({ min: 1, max: 120 }),
        fc.constantFrom('previous_period', 'previous_year', 'custom'),
        fc.integer({ min: 1, max: 90 }),
        async ([i, extra], start, days, kind, back) => {
          const c = cases[i]!;
          const end = isoDay(dayOf(start) + (days - 1) * dayMs);
          const body: Json = {
            category_id: ids.cat1,
            start_date: start,
            end_date: end,
            ...Object.fromEntries(Object.entries(extra).filter(([, v]) => v !== undefined)),
          };
          const [prevStart, prevEnd] =
            kind === 'previous_period'
              ? [isoDay(dayOf(start) - days * dayMs), isoDay(dayOf(start) - dayMs)]
              : kind === 'previous_year'
                ? [`${Number(start.slice(0, 4)) - 1}${start.slice(4)}`, `${Number(end.slice(0, 4)) - 1}${end.slice(4)}`]
                : [
                    isoDay(dayOf(start) - back * dayMs),
                    isoDay(dayOf(start) - back * dayMs + Math.max(0, days - 3) * dayMs),
                  ];
          const compare = kind === 'custom' ? `${prevStart}..${prevEnd}` : kind;
          const engine = engines[c.fixture];
          const read = c.paged ? pages : stream;
          const compared = await read(engine, c.name, body, { compare });
          const current = await read(engine, c.name, body);
          const previous = await read(engine, c.name, { ...body, start_date: prevStart, end_date: prevEnd });
          expect(compared.head.compare).toEqual({ start_date: prevStart, end_date: prevEnd });

          const metrics = c.metrics(body);
          const interval = body.interval as string | undefined;
          const dated =
            interval !== undefined &&
            (c.name.startsWith('videoplatform') || (body.group_by as string[] | undefined)?.includes('date'));
          const [curBuckets, prevBuckets] = [
            buckets(start, end, interval ?? 'day'),
            buckets(prevStart, prevEnd, interval ?? 'day'),
          ];
          const notKeys = new Set([
            ...metrics,
            ...c.places,
            ...c.described,
            ...metrics.flatMap((m) => [`${m}_previous`, `${m}_change`, `${m}_change_pct`]),
          ]);
          const keyOf = (r: Json, list: string[]) =>
            JSON.stringify(
              Object.entries(r)
                .filter(([k]) => !notKeys.has(k))
                .map(([k, v]) => [k, dated && k === 'date' ? list.indexOf(v) : v]),
            );
          const prevBy = new Map(previous.rows.map((r) => [keyOf(r, prevBuckets), r]));
          expect(prevBy.size).toBe(previous.rows.length);
          const change = (x: any, y: any) => (x === null || y === null ? null : x - y);
          const withPrevious = (r: Json, p: Json | undefined) => ({
            ...r,
            ...Object.fromEntries(
              metrics.flatMap((m) => [
                [`${m}_previous`, p?.[m] ?? null],
                [`${m}_change`, change(r[m], p?.[m] ?? null)],
                [
                  `${m}_change_pct`,
                  r[m] === null || p === undefined || p[m] === null || p[m] === 0 ? null : (r[m] - p[m]) / p[m],
                ],
              ]),
            ),
          });
          const seen = new Set(current.rows.map((r) => keyOf(r, curBuckets)));
          const expected = current.rows.map((r) => withPrevious(r, prevBy.get(keyOf(r, curBuckets))));
          const only = previous.rows.filter(
            (r) => !seen.has(keyOf(r, prevBuckets)) && (!dated || prevBuckets.indexOf(r.date) < curBuckets.length),
          );
          const moved = only.map((r) => ({
            ...r,
            ...(dated ? { date: curBuckets[prevBuckets.indexOf(r.date)] } : {}),
            ...Object.fromEntries([...metrics, ...c.places].map((m) => [m, null])),
          }));
          expect(compared.rows.slice(0, current.rows.length)).toEqual(expected);
          const tail = compared.rows.slice(current.rows.length);
          expect(tail.map((r) => JSON.stringify(r)).sort()).toEqual(
            moved
              .map((r) => JSON.stringify(withPrevious(r, r && prevBy.get(keyOf(only[moved.indexOf(r)]!, prevBuckets)))))
              .sort(),
          );
          expect(compared.head.total_results).toBeGreaterThanOrEqual(current.head.total_results);
        },
      ),
      { numRuns: 60 },
    );
  }, 240_000);

  it('pages over the compared answer: the pages joined are the stream', async () => {
    const body = {
      category_id: ids.cat1,
      start_date: '2026-05-01',
      end_date: '2026-08-31',
      group_by: ['date', 'model'],
      interval: 'month',
    };
    const whole = await stream(engines.more, 'citations', body, { compare: 'previous_period' });
    const paged = await pages(engines.more, 'citations', { ...body, limit: 3 }, { compare: 'previous_period' });
    expect(paged.head.compare).toEqual({ start_date: '2025-12-29', end_date: '2026-04-30' });
    expect(paged.head.total_results).toBe(whole.rows.length);
    expect(paged.rows).toEqual(whole.rows);
  });

  it('refuses where it does not apply, naming the query parameter', async () => {
    const refusal = (engine: Engine, name: string, body: Json, options: Json) =>
      (engine.org(ids.org1).reports as Json)[name](body, options).then(
        () => null,
        (e: unknown) => (e instanceof ValidationError ? e.body().detail : e),
      );
    const window = { category_id: ids.cat1, start_date: '2026-05-01', end_date: '2026-06-30' };
    expect(await refusal(engines.shopping, 'factcheckClaims', window, { compare: 'previous_period' })).toMatchObject([
      { loc: ['query', 'compare'], msg: expect.stringContaining('group_by') },
    ]);
    expect(await refusal(engines.more, 'promptAnswers', window, { compare: 'previous_period' })).toMatchObject([
      { loc: ['query', 'compare'] },
    ]);
    for (const bad of ['2026-05-01T10:00:00..2026-05-20', '2026-05-20..2026-05-01', '2020-01-01..2026-01-01']) {
      expect(await refusal(engines.more, 'citations', window, { compare: bad }), bad).toMatchObject([
        { loc: ['query', 'compare'] },
      ]);
    }
  });

  it('explain shows the compared statement without reading data', async () => {
    const explained = (await (engines.shopping.org(ids.org1).reports as Json).shoppingProducts(
      { category_id: ids.cat1, start_date: '2026-05-01', end_date: '2026-06-30', target_product: productIds[0] },
      { compare: 'previous_year', explain: true },
    )) as Json;
    expect(explained.explain.statements.at(-1).sql).toMatch(/cmp_then/);
    expect(explained.explain.plan.compared).toEqual({ startDate: '2025-05-01', endDate: '2025-06-30' });
  });
});

describe('components on the v2 reports', () => {
  const ratioCases = [
    {
      name: 'factcheck',
      fixture: 'more' as const,
      ratios: ['accuracy'],
      groups: [[], ['model'], ['theme']],
      extra: {},
      percent: false,
    },
    {
      name: 'queryFanouts',
      fixture: 'tabular' as const,
      ratios: ['fanouts_per_execution'],
      groups: [['prompt'], ['model'], ['region']],
      extra: { metrics: ['total_fanouts', 'fanouts_per_execution'] },
      percent: false,
    },
    {
      name: 'sentiment',
      fixture: 'more' as const,
      ratios: ['positive_sentiment', 'negative_sentiment'],
      groups: [[], ['model'], ['topic']],
      extra: { asset: 'Acme' },
      percent: true,
    },
    {
      name: 'shoppingProducts',
      fixture: 'shopping' as const,
      ratios: ['average_position', 'position1_percentage', 'position_above3_percentage'],
      groups: [[]],
      extra: { metrics: ['average_position', 'position1_percentage', 'position_above3_percentage', 'product_rating'] },
      percent: false,
    },
  ];
  const quotient = (percent: boolean, n: number, d: number) => (percent ? (100 * n) / d : n / d);

  it('summing the parts of daily rows reproduces the window’s parts, and each ratio is its parts’ quotient', async () => {
    const tried = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: ratioCases.length - 1 }),
        fc.nat(2),
        windowDay,
        fc.integer({ min: 1, max: 120 }),
        async (i, g, start, days) => {
          const c = ratioCases[i]!;
          const groups = c.groups[g % c.groups.length]!;
          const window = {
            category_id: ids.cat1,
            start_date: start,
            end_date: isoDay(dayOf(start) + (days - 1) * dayMs),
            ...c.extra,
          };
          const engine = engines[c.fixture];
          const whole = await stream(engine, c.name, { ...window, group_by: groups }, { components: true });
          const daily = await stream(
            engine,
            c.name,
            { ...window, group_by: [...groups, 'date'], interval: 'day' },
            { components: true },
          );
          const parts = c.ratios.flatMap((m) => [`${m}_numerator`, `${m}_denominator`]);
          const keyOf = (r: Json) =>
            JSON.stringify(
              Object.entries(r).filter(
                ([k]) =>
                  !['date', 'rank', 'visibility_rank', ...c.ratios, ...parts].includes(k) && typeof r[k] !== 'number',
              ),
            );
          const sums = new Map<string, number[]>();
          for (const r of daily.rows) {
            sums.set(
              keyOf(r),
              (sums.get(keyOf(r)) ?? parts.map(() => 0)).map((s, q) => s + r[parts[q]!]),
            );
            c.ratios.forEach((m, q) => {
              if (r[parts[2 * q + 1]!] > 0)
                expect(r[m], m).toBeCloseTo(quotient(c.percent, r[parts[2 * q]!], r[parts[2 * q + 1]!]), 12);
            });
          }
          expect(whole.rows.length).toBe(sums.size);
          if (whole.rows.some((r) => r[parts[1]!] > 0)) tried.add(c.name);
          for (const r of whole.rows) {
            const summed = sums.get(keyOf(r))!;
            expect(
              parts.map((p) => r[p]),
              'the window’s parts are the sums of the days’',
            ).toEqual(summed);
            c.ratios.forEach((m, q) => {
              if (summed[2 * q + 1]! > 0)
                expect(r[m], m).toBeCloseTo(quotient(c.percent, summed[2 * q]!, summed[2 * q + 1]!), 12);
              if (!c.percent && summed[2 * q + 1]! > 0) expect(r[m], m).toBe(summed[2 * q]! / summed[2 * q + 1]!);
            });
          }
        },
      ),
      // A fixed window with answers per case, so every case is tried whatever the random draws.
      { numRuns: 40, examples: ratioCases.map((_, i) => [i, 0, '2026-05-01', 90] as [number, number, string, number]) },
    );
    expect([...tried].sort()).toEqual(ratioCases.map((c) => c.name).sort());
  }, 240_000);

  it('claim sections carry accuracy’s parts; compare and fill keep them as places and counts', async () => {
    const window = { category_id: ids.cat1, start_date: '2026-01-01', end_date: '2026-12-31' };
    const sections = (await (engines.shopping.org(ids.org1).reports as Json).factcheckClaims(
      { ...window, group_by: ['model'] },
      { components: true },
    )) as Json;
    expect(sections.data.length).toBeGreaterThan(0);
    for (const s of sections.data) {
      expect(s.accuracy_numerator).toBe(s.accurate);
      expect(s.accuracy_denominator).toBe(s.accurate + s.inaccurate);
    }
    const filled = await stream(
      engines.more,
      'factcheck',
      { ...window, group_by: ['date', 'model'], interval: 'month' },
      { components: true, fill: 'zero' },
    );
    // null-rule: accuracy-without-claims (a filled section has no claims: accuracy is null over 0 / 0)
    const zero = filled.rows.filter((r) => r.accuracy === null);
    expect(zero.length).toBeGreaterThan(0);
    for (const r of zero) expect([r.accuracy_numerator, r.accuracy_denominator]).toEqual([0, 0]);
  });

  it('refuses where the parts would not re-aggregate, naming the query parameter', async () => {
    const refusal = (engine: Engine, name: string, body: Json) =>
      (engine.org(ids.org1).reports as Json)[name](body, { components: true }).then(
        () => null,
        (e: unknown) => (e instanceof ValidationError ? e.body().detail : e),
      );
    const window = { category_id: ids.cat1, start_date: '2026-05-01', end_date: '2026-06-30' };
    const cases: [Engine, string, Json, string][] = [
      [engines.more, 'queryFanouts', { ...window, group_by: ['prompt', 'query'] }, 'query'],
      [
        engines.more,
        'sentiment',
        { ...window, asset: 'Acme', metrics: ['occurrence'], group_by: ['theme'] },
        'occurrence',
      ],
      [
        engines.shopping,
        'shoppingProducts',
        { ...window, group_by: ['date'], metrics: ['visibility_score'] },
        'visibility_score',
      ],
      [engines.shopping, 'factcheckClaims', window, 'section'],
      [engines.more, 'citations', window, 'does not apply'],
      [engines.more, 'videoplatformChannels', window, 'does not apply'],
    ];
    for (const [engine, name, body, says] of cases)
      expect(await refusal(engine, name, body), name).toMatchObject([
        { loc: ['query', 'components'], msg: expect.stringContaining(says) },
      ]);
  });
});

describe('a stream whose units hold several rows (a channel’s cells), filled or compared', () => {
  it('counts in its head the rows it sends, capped by max_results or not', async () => {
    const body = {
      category_id: ids.cat1,
      start_date: '2026-05-01',
      end_date: '2026-08-31',
      group_by: ['channel', 'model'],
      interval: 'month',
    };
    for (const [request, options] of [
      [body, { fill: 'zero' }],
      [{ ...body, max_results: 7 }, { fill: 'zero' }],
      [body, { compare: 'previous_period' }],
      [{ ...body, max_results: 7 }, { compare: 'previous_period' }],
    ] as const) {
      const { head, rows } = await stream(engines.more, 'videoplatformChannels', request, options);
      expect(rows.length, JSON.stringify([request, options])).toBeGreaterThan(6);
      expect(head.count, JSON.stringify([request, options])).toBe(rows.length);
    }
  });
});

describe('fill on the claims report', () => {
  it('is refused, saying the report has no dates, with or without a section', async () => {
    const window = { category_id: ids.cat1, start_date: '2026-05-01', end_date: '2026-06-30' };
    for (const body of [window, { ...window, group_by: ['model'] }]) {
      const detail = await (engines.shopping.org(ids.org1).reports as Json)
        .factcheckClaims(body, { fill: 'zero' })
        .catch((e: ValidationError) => e.body().detail);
      expect(detail).toMatchObject([
        { loc: ['query', 'fill'], msg: expect.stringContaining('no dates'), input: 'zero' },
      ]);
    }
  });
});
