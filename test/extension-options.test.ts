import { describe, expect, it } from 'vitest';
import { refusal } from './helpers/refusal.ts';
import { comparedWindow, readCompare } from '../src/reports/extensions/compare-window.ts';
import { comparedDates } from '../src/reports/extensions/compared-dates.ts';
import { rollupReason } from '../src/reports/extensions/explain.ts';
import { engineVersion, formatsVersion } from '../src/engine/engine-version.ts';
import { fingerprint } from '../src/query/cursor.ts';
import { answerFingerprint, etagOf, ifNoneMatchTags } from '../src/reports/extensions/fingerprint.ts';
import { askedFor, parseExtensions, querySchemaFor } from '../src/reports/extensions/options.ts';

/**
 * The extensions' pure parts, with exact answers: the query parameters as read, the compared windows
 * (v1 instants and v2 dates) at their limits and one past, the entity tags a client sends back, and the
 * reasons explain gives for the rollups it reads.
 */

const compareLoc = ['query', 'compare'];
const utc = (text: string) => Date.parse(text);

describe('the extensions a request asks for', () => {
  it('are none by default, and each one as asked', () => {
    const none = { explain: false, fill: null, compare: null, components: false };
    expect(parseExtensions(undefined)).toEqual(none);
    expect(parseExtensions({})).toEqual(none);
    expect(parseExtensions({ explain: 'true', fill: 'zero', components: '1', compare: 'previous_year' })).toEqual({
      explain: true,
      fill: 'zero',
      compare: 'previous_year',
      components: true,
    });
    expect(parseExtensions({ explain: 'false', components: 'no' })).toEqual(none);
    expect(parseExtensions({ compare: '2025-01-01..2025-01-31' }).compare).toEqual({
      start: '2025-01-01',
      end: '2025-01-31',
    });
  });

  it('lists the answer extensions in a fixed order, explain never among them', () => {
    expect(askedFor(parseExtensions({}))).toEqual([]);
    expect(askedFor(parseExtensions({ explain: true }))).toEqual([]);
    expect(askedFor(parseExtensions({ components: true, compare: 'previous_period', fill: 'zero' }))).toEqual([
      'fill',
      'compare',
      'components',
    ]);
    expect(askedFor(parseExtensions({ components: true }))).toEqual(['components']);
  });

  it('refuses a misspelt extension or a bad value at ["query", name]', () => {
    expect(refusal(() => parseExtensions({ fil: 'zero' })).loc).toEqual(['query', 'fil']);
    expect(refusal(() => parseExtensions({ fill: 'one' })).loc).toEqual(['query', 'fill']);
    expect(refusal(() => parseExtensions({ compare: 'x'.repeat(81) })).loc).toEqual(['query', 'compare']);
    expect(parseExtensions({ compare: 'previous_period' }).compare).toBe('previous_period');
  });

  it('documents for an endpoint explain and only the extensions it takes', () => {
    expect(Object.keys(querySchemaFor([]).shape)).toEqual(['explain']);
    expect(Object.keys(querySchemaFor(['compare', 'fill']).shape).sort()).toEqual(['compare', 'explain', 'fill']);
  });
});

describe('compare as written', () => {
  it('reads the two named windows and START..END', () => {
    expect(readCompare('previous_period')).toBe('previous_period');
    expect(readCompare('previous_year')).toBe('previous_year');
    expect(readCompare('2025-03-01..2025-03-08 12:00')).toEqual({ start: '2025-03-01', end: '2025-03-08 12:00' });
  });

  it('refuses anything else with what it takes', () => {
    const takes = 'Value error, compare is previous_period, previous_year or START..END';
    expect(refusal(() => readCompare('last_week'))).toEqual({ loc: compareLoc, msg: takes, input: 'last_week' });
    expect(refusal(() => readCompare('2025-01-01..2025-01-02..2025-01-03')).msg).toBe(takes);
    expect(refusal(() => readCompare('2025-13-01..2025-01-02'))).toEqual({
      loc: compareLoc,
      msg: 'Value error, month value is outside expected range of 1-12; use YYYY-MM-DD, YYYY-MM-DD HH:MM, YYYY-MM-DD HH:MM:SS or an ISO 8601 timestamp',
      input: '2025-13-01..2025-01-02',
    });
    expect(refusal(() => readCompare('2025-01-01..2025-01-32')).msg).toBe(
      'Value error, day value is outside expected range; use YYYY-MM-DD, YYYY-MM-DD HH:MM, YYYY-MM-DD HH:MM:SS or an ISO 8601 timestamp',
    );
  });
});

describe('the compared window of a v1 request (instants)', () => {
  const w = { startMs: utc('2025-03-10T00:00:00Z'), endMs: utc('2025-03-17T00:00:00Z') };

  it('START..END is read in the zone, and may be as long as the limit', () => {
    expect(comparedWindow({ start: '2025-01-01', end: '2025-01-08' }, w, 'UTC', 7)).toEqual({
      startMs: utc('2025-01-01T00:00:00Z'),
      endMs: utc('2025-01-08T00:00:00Z'),
    });
    expect(comparedWindow({ start: '2025-01-01', end: '2025-01-02' }, w, 'Asia/Kolkata', 7)).toEqual({
      startMs: utc('2024-12-31T18:30:00Z'),
      endMs: utc('2025-01-01T18:30:00Z'),
    });
  });

  it('refuses a window that ends where it starts or before, or one millisecond past the limit', () => {
    const input = '2025-01-02..2025-01-02';
    expect(refusal(() => comparedWindow({ start: '2025-01-02', end: '2025-01-02' }, w, 'UTC', 7))).toEqual({
      loc: compareLoc,
      msg: 'Value error, the compared window must end after it starts',
      input,
    });
    expect(refusal(() => comparedWindow({ start: '2025-01-02', end: '2025-01-01' }, w, 'UTC', 7)).msg).toBe(
      'Value error, the compared window must end after it starts',
    );
    expect(
      refusal(() => comparedWindow({ start: '2025-01-01', end: '2025-01-08T00:00:00.001Z' }, w, 'UTC', 7)),
    ).toEqual({
      loc: compareLoc,
      msg: 'Value error, the compared window is longer than 7 days',
      input: '2025-01-01..2025-01-08T00:00:00.001Z',
    });
  });

  it('previous_period across a DST change counts whole days only when both ends are midnights', () => {
    const ny = 'America/New_York';
    // 8 to 10 March 2025 in New York (clocks went forward on the 9th): a day of 23 hours inside.
    const days = { startMs: utc('2025-03-08T05:00:00Z'), endMs: utc('2025-03-10T04:00:00Z') };
    expect(comparedWindow('previous_period', days, ny, 7)).toEqual({
      startMs: utc('2025-03-06T05:00:00Z'),
      endMs: days.startMs,
    });
    const endsAtNoon = { startMs: utc('2025-03-08T05:00:00Z'), endMs: utc('2025-03-10T16:00:00Z') };
    expect(comparedWindow('previous_period', endsAtNoon, ny, 7)).toEqual({
      startMs: utc('2025-03-05T18:00:00Z'),
      endMs: endsAtNoon.startMs,
    });
    const startsAtSix = { startMs: utc('2025-03-08T11:00:00Z'), endMs: utc('2025-03-10T04:00:00Z') };
    expect(comparedWindow('previous_period', startsAtSix, ny, 7)).toEqual({
      startMs: utc('2025-03-06T18:00:00Z'),
      endMs: startsAtSix.startMs,
    });
  });

  it('previous_period of a window that is not whole days is as many milliseconds just before', () => {
    const hours = { startMs: utc('2025-03-10T06:00:00Z'), endMs: utc('2025-03-10T09:30:00Z') };
    expect(comparedWindow('previous_period', hours, 'UTC', 7)).toEqual({
      startMs: utc('2025-03-10T02:30:00Z'),
      endMs: hours.startMs,
    });
    expect(comparedWindow('previous_period', w, 'UTC', 7)).toEqual({
      startMs: utc('2025-03-03T00:00:00Z'),
      endMs: w.startMs,
    });
  });
});

describe('the compared dates of a v2 request', () => {
  const window = { startDate: '2025-03-01', endDate: '2025-03-31' };

  it('previous_period is as many days just before; previous_year the same dates a year earlier', () => {
    expect(comparedDates(window, 'previous_period', 366)).toEqual({ startDate: '2025-01-29', endDate: '2025-02-28' });
    expect(comparedDates({ startDate: '2025-01-01', endDate: '2025-01-01' }, 'previous_period', 366)).toEqual({
      startDate: '2024-12-31',
      endDate: '2024-12-31',
    });
    expect(comparedDates(window, 'previous_year', 366)).toEqual({ startDate: '2024-03-01', endDate: '2024-03-31' });
    expect(comparedDates({ startDate: '2024-02-29', endDate: '2024-12-31' }, 'previous_year', 366)).toEqual({
      startDate: '2023-03-01',
      endDate: '2023-12-31',
    });
  });

  it('START..END is two dates, one day or up to the limit long', () => {
    expect(comparedDates(window, { start: '2024-06-01', end: '2024-06-01' }, 7)).toEqual({
      startDate: '2024-06-01',
      endDate: '2024-06-01',
    });
    expect(comparedDates(window, { start: '2024-06-01', end: '2024-06-07' }, 7)).toEqual({
      startDate: '2024-06-01',
      endDate: '2024-06-07',
    });
  });

  it('refuses what is not two real dates, an end before the start, and one day past the limit', () => {
    const takes = 'Value error, compare START..END takes two dates (YYYY-MM-DD, both inclusive) on the v2 reports';
    for (const [start, end] of [
      ['2024-06-01 00:00', '2024-06-02'],
      ['2024-06-01', '2024-06-02T00:00:00Z'],
      ['2023-02-29', '2023-03-01'],
      ['2024-06-01', '2024-06-31'],
      ['x2024-06-01', '2024-06-02'],
    ] as const)
      expect(refusal(() => comparedDates(window, { start, end }, 7))).toEqual({
        loc: compareLoc,
        msg: takes,
        input: `${start}..${end}`,
      });
    expect(refusal(() => comparedDates(window, { start: '2024-06-02', end: '2024-06-01' }, 7))).toEqual({
      loc: compareLoc,
      msg: 'Value error, the compared window must end on or after its start',
      input: '2024-06-02..2024-06-01',
    });
    expect(refusal(() => comparedDates(window, { start: '2024-06-01', end: '2024-06-08' }, 7))).toEqual({
      loc: compareLoc,
      msg: 'Value error, the compared window is longer than 7 days',
      input: '2024-06-01..2024-06-08',
    });
  });
});

describe('entity tags', () => {
  it('a fingerprint is sent quoted', () => {
    expect(etagOf('abc')).toBe('"abc"');
  });

  it('If-None-Match names each tag once unquoted, weak or strong, and keeps *', () => {
    expect(ifNoneMatchTags(undefined)).toEqual([]);
    expect(ifNoneMatchTags('')).toEqual([]);
    expect(ifNoneMatchTags('"a"')).toEqual(['a']);
    expect(ifNoneMatchTags(' W/"a" , "b",, *')).toEqual(['a', 'b', '*']);
    expect(ifNoneMatchTags(['"a", "b"', 'W/"c"'])).toEqual(['a', 'b', 'c']);
    expect(ifNoneMatchTags('bare')).toEqual(['bare']);
    expect(ifNoneMatchTags('"half')).toEqual(['"half']);
    expect(ifNoneMatchTags('x"y", "a"b, "W/w"')).toEqual(['x"y"', '"a"b', 'W/w']);
    expect(ifNoneMatchTags('*, "*"')).toEqual(['*', '*']);
    expect(ifNoneMatchTags(ifNoneMatchTags(etagOf('xyz')).map(etagOf))).toEqual(['xyz']);
  });
});

describe('an answer’s fingerprint', () => {
  // The inputs a call gives it, as plain values: the organization and the dataset's content version.
  const ctx = { organizationId: 'o1', core: { version: { current: async () => 'v9' } } } as never;
  const prepared = { report: 'visibility' } as never;
  const expected = (extensions: object, format: string, formats?: string) =>
    fingerprint({
      report: 'visibility',
      organization: 'o1',
      request: { a: 1 },
      extensions,
      format,
      dataset: 'v9',
      engine: engineVersion,
      ...(formats ? { formats } : {}),
    });

  it('hashes the call, only the extensions asked for, and the formats version for a table format', async () => {
    const of = (query: Record<string, unknown>, format: 'json' | 'csv') =>
      answerFingerprint(ctx, prepared, { a: 1 }, parseExtensions(query), format);
    expect(await of({}, 'json')).toBe(expected({}, 'json'));
    expect(await of({ explain: 'false', components: 'false' }, 'json')).toBe(expected({}, 'json'));
    expect(await of({}, 'csv')).toBe(expected({}, 'csv', formatsVersion));
    expect(await of({ fill: 'zero', explain: 'true' }, 'csv')).toBe(
      expected({ explain: true, fill: 'zero' }, 'csv', formatsVersion),
    );
  });
});

describe('why the SQL reads the rollups it does', () => {
  it('no candidate: the facts', () => {
    expect(rollupReason({ candidates: [], chosen: [] })).toBe(
      'no rollup keeps every key this request groups and filters by (or the report has none): the SQL reads the facts',
    );
  });

  it('rollups off: the candidates are named, and the facts read', () => {
    expect(rollupReason({ candidates: ['daily'], chosen: [] }, 'off')).toBe(
      'daily keeps every key this request groups and filters by, but rollups are off for this engine (`rollups: false`): the SQL reads the facts',
    );
    expect(rollupReason({ candidates: ['daily', 'hourly'], chosen: ['daily', 'hourly'] }, 'off')).toBe(
      'daily and hourly keep every key this request groups and filters by, but rollups are off for this engine (`rollups: false`): the SQL reads the facts',
    );
  });

  it('all current: the rollups are read, in the singular or the plural', () => {
    expect(rollupReason({ candidates: ['daily'], chosen: ['daily'] })).toBe(
      'daily keeps every key this request groups and filters by, and is current: the SQL reads it instead of the facts',
    );
    expect(rollupReason({ candidates: ['daily', 'hourly'], chosen: ['daily', 'hourly'] }, 'stored')).toBe(
      'daily and hourly keep every key this request groups and filters by, and are current: the SQL reads them instead of the facts',
    );
  });

  it('some not built: the missing ones are named, and the facts read', () => {
    expect(rollupReason({ candidates: ['daily', 'hourly'], chosen: ['daily'] })).toBe(
      'daily and hourly keep every key this request groups and filters by, but hourly is not built for the current prompts yet (a plain request starts the build; explain does not): the SQL reads the facts',
    );
    expect(rollupReason({ candidates: ['daily', 'hourly'], chosen: [] })).toBe(
      'daily and hourly keep every key this request groups and filters by, but daily and hourly are not built for the current prompts yet (a plain request starts the build; explain does not): the SQL reads the facts',
    );
    expect(rollupReason({ candidates: ['daily'], chosen: [] })).toBe(
      'daily keeps every key this request groups and filters by, but daily is not built for the current prompts yet (a plain request starts the build; explain does not): the SQL reads the facts',
    );
  });

  it('read in place only (`aea query`): a missing one is named as not stored, and the facts read', () => {
    expect(rollupReason({ candidates: ['daily', 'hourly'], chosen: ['daily'] }, 'stored')).toBe(
      'daily and hourly keep every key this request groups and filters by, but hourly is not stored for the current prompts and dataset (this engine reads stored rollups in place and builds none, as `aea query` does; `aea rollups build` stores them): the SQL reads the facts',
    );
  });
});
