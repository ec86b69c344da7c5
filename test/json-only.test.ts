import { describe, expect, it } from 'vitest';
import { NotAcceptableError } from '../src/errors.ts';
import { rowsFor } from '../src/formats/encode.ts';
import type { EndpointResult } from '../src/query/rows-result.ts';

/** A table format asked of an operation that answers no rows (a resource, an agent run) is a 406 naming the formats. */
describe('rowsFor', () => {
  it('hands on a rows result, and refuses a JSON or event answer with a 406 that names the table formats', () => {
    const rows: EndpointResult = { kind: 'rows', framing: 'page', shape: { fields: [] }, read: async function* () {} };
    expect(rowsFor(rows, 'csv', '/v2/reports/visibility')).toBe(rows);
    const answers: EndpointResult[] = [
      { kind: 'json', status: 200, json: '{}' },
      { kind: 'stream', events: (async function* () {})() },
    ];
    for (const answer of answers) {
      let refusal: unknown;
      try {
        rowsFor(answer, 'parquet', '/v1/prompts');
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(NotAcceptableError);
      expect((refusal as NotAcceptableError).status).toBe(406);
      expect((refusal as Error).message).toBe(
        '/v1/prompts answers JSON only; parquet is offered by report endpoints (formats: json, ndjson, csv, arrow, parquet)',
      );
    }
  });
});
