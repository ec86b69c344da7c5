import { describe, expect, it } from 'vitest';
import { NotAcceptableError } from '../src/errors.ts';
import { accepts, maxMediaRanges, negotiate } from '../src/formats/accept.ts';
import { requestedFormat, withoutFormat } from '../src/formats/format-param.ts';
import { contentType, formatOf, isFormatName } from '../src/formats/format-names.ts';

/**
 * The format a call gets, in process and with exact answers: the Accept header's ranges (their count,
 * weights and specificity), `?format=` beside it, and the names and Content-Types of the formats.
 */

const caught = (call: () => unknown): unknown => {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
};

describe('an Accept header', () => {
  it(`is read for its first ${maxMediaRanges} ranges only`, () => {
    const others = (n: number) => Array.from({ length: n }, () => 'application/xml').join(', ');
    expect(negotiate(`${others(maxMediaRanges - 1)}, text/csv`, false)).toBe('csv');
    expect(negotiate(`${others(maxMediaRanges)}, text/csv`, false)).toBeNull();
  });

  it('skips a range without a type or a subtype', () => {
    expect(negotiate('text, text/csv;q=0.5', false)).toBe('csv');
    expect(negotiate('/csv', false)).toBeNull();
    expect(negotiate('text/', false)).toBeNull();
  });

  it('reads q among other parameters, caps it at 1, and gives a malformed number no weight', () => {
    expect(negotiate('text/csv;level=1;q=0.5, application/x-ndjson;q=0.4', false)).toBe('csv');
    expect(negotiate('text/csv;q=0.3, application/x-ndjson;q=0.4', false)).toBe('ndjson');
    expect(negotiate('text/csv;q=2, application/x-ndjson', false)).toBe('ndjson');
    expect(negotiate('application/x-ndjson;q=1, text/csv;q=7', false)).toBe('ndjson');
    expect(negotiate('text/csv;q=1.2.3', false)).toBeNull();
    expect(negotiate('text/csv;level=1;q=0', false)).toBeNull();
    expect(negotiate('text/csv;xq=0', false)).toBe('csv');
    expect(negotiate('text/csv;q=0x', false)).toBe('csv');
    expect(negotiate('text/csv;q=high', false)).toBe('csv');
    expect(negotiate(' Text/CSV ; Q=0.5 ', false)).toBe('csv');
  });

  it('weighs a type by its most specific range, whatever their order', () => {
    expect(negotiate('text/*, text/csv;q=0', false)).toBeNull();
    expect(negotiate('text/csv;q=0, text/*', false)).toBeNull();
    expect(negotiate('*/*;q=0.1, application/*;q=0', false)).toBe('csv');
    expect(negotiate('application/*;q=0, */*;q=0.1', false)).toBe('csv');
    expect(negotiate('text/*;q=0.5, text/*;q=0', false)).toBe('csv');
    expect(negotiate('*/csv', false)).toBeNull();
  });

  it('takes a format, or any when it is missing or blank', () => {
    expect(accepts(undefined, 'parquet', false)).toBe(true);
    expect(accepts('', 'csv', true)).toBe(true);
    expect(accepts('  ', 'arrow', false)).toBe(true);
    expect(negotiate('  ', false)).toBe('json');
    expect(accepts('text/csv', 'csv', false)).toBe(true);
    expect(accepts('text/csv;q=0', 'csv', false)).toBe(false);
    expect(accepts('text/csv', 'ndjson', false)).toBe(false);
    expect(accepts('text/event-stream', 'json', true)).toBe(true);
    expect(accepts('application/json', 'json', true)).toBe(true);
    expect(accepts('text/event-stream', 'json', false)).toBe(false);
    expect(accepts('text/event-stream', 'csv', true)).toBe(false);
  });
});

describe('?format= beside Accept', () => {
  it('is the format asked for when Accept is missing or takes it', () => {
    expect(requestedFormat({ format: 'csv' }, undefined, false)).toBe('csv');
    expect(requestedFormat({ format: 'parquet' }, 'application/vnd.apache.parquet', true)).toBe('parquet');
    expect(requestedFormat({ format: 'ndjson' }, '*/*', false)).toBe('ndjson');
    expect(requestedFormat({ format: 'json' }, 'text/event-stream', true)).toBe('json');
  });

  it('leaves the choice to Accept when absent', () => {
    for (const query of [null, undefined, 'format=csv', {}, { format: undefined }, { limit: '5' }]) {
      expect(requestedFormat(query, 'text/csv', false)).toBe('csv');
      expect(requestedFormat(query, 'text/event-stream', true)).toBe('json');
      expect(requestedFormat(query, 'text/event-stream', false)).toBeNull();
    }
  });

  it('is a 422 at ["query", "format"] when unknown', () => {
    for (const format of ['xml', 3])
      expect(caught(() => requestedFormat({ format }, undefined, false))).toMatchObject({
        status: 422,
        detail: [
          {
            loc: ['query', 'format'],
            msg: "Input should be 'json', 'ndjson', 'csv', 'arrow' or 'parquet'",
            input: format,
          },
        ],
      });
  });

  it('is a 406 naming both when Accept does not take it', () => {
    const error = caught(() => requestedFormat({ format: 'csv' }, 'application/json', false));
    expect(error).toBeInstanceOf(NotAcceptableError);
    expect((error as Error).message).toBe(
      'format=csv (text/csv) and the Accept header (application/json) disagree: drop one of them or make them agree',
    );
    expect(caught(() => requestedFormat({ format: 'json' }, 'text/event-stream', false))).toBeInstanceOf(
      NotAcceptableError,
    );
  });

  it('is consumed: the other query parameters go on without it', () => {
    expect(withoutFormat({ format: 'csv', limit: '5', fill: 'zero' })).toEqual({ limit: '5', fill: 'zero' });
    expect(withoutFormat({})).toEqual({});
    expect(withoutFormat(null)).toBeUndefined();
    expect(withoutFormat(undefined)).toBeUndefined();
    expect(withoutFormat('format=csv')).toBeUndefined();
  });
});

describe('the formats by name', () => {
  it('are sent with their Content-Type', () => {
    expect(contentType('json', false)).toBe('application/json; charset=utf-8');
    expect(contentType('json', true)).toBe('text/event-stream; charset=utf-8');
    expect(contentType('csv', true)).toBe('text/csv; charset=utf-8; header=present');
    expect(contentType('ndjson', false)).toBe('application/x-ndjson; charset=utf-8');
    expect(contentType('arrow', false)).toBe('application/vnd.apache.arrow.stream');
    expect(contentType('parquet', true)).toBe('application/vnd.apache.parquet');
  });

  it('are chosen by a caller, JSON by default, and an unknown name is refused with the list', () => {
    expect(formatOf(undefined)).toBe('json');
    expect(formatOf('arrow')).toBe('arrow');
    for (const name of ['xml', 'toString', 7]) {
      const error = caught(() => formatOf(name));
      expect(error).toBeInstanceOf(NotAcceptableError);
      expect((error as Error).message).toBe(
        `unknown format ${JSON.stringify(name)}; formats: json, ndjson, csv, arrow, parquet`,
      );
    }
    expect(isFormatName('constructor')).toBe(false);
    expect(isFormatName(['csv'])).toBe(false);
    expect(isFormatName('csv')).toBe(true);
  });
});
