import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/library/engine.ts';
import { openFixture } from './helpers/arrow-fixture.ts';
import { ids } from './fixtures/insights.ts';
import { tabularFixture } from './fixtures/tabular.ts';
import { spaces, type Space } from './helpers/tabular-spaces.ts';

/**
 * Random requests to the tabular reports (v1 Insights, traffic, raw logs) answered by DuckDB and by
 * chdb over the same tables: the same JSON, or the same refusal. Filters are drawn over every field each
 * report accepts (checked against the list its refusal of an unknown field gives), with every operator
 * (those a field does not take are refused, identically). The windows cross DST changes, the zones
 * include half-hour offsets (Asia/Kolkata) and a zone that moves by half an hour (Australia/Lord_Howe).
 * `AEA_PROPERTY_RUNS` sets the runs per report (15 in `npm test`; 200 in the full run of docs/scale-out.md).
 *
 * Why 15 cover the generator (it was 25; a chdb request costs the suite about a second of ClickHouse
 * planning): the 150 requests of a run draw each interval, zone and window many times over, and the
 * calendar SQL is shared by the reports; each report's fields are checked against its refusal by the first
 * test, and fixed requests of each report are answered on chdb every run: its golden requests
 * (test/backend-agreement.test.ts: DST windows, intervals from hour to quarter, Asia/Kolkata, flat
 * filters, a segment) or, for the raw logs, its request over the sample (test/backend-every-report.test.ts).
 */
const rows = tabularFixture();
let duck: Engine;
let chdb: Engine;
const clock = () => new Date('2026-12-01T00:00:00Z');
beforeAll(async () => {
  duck = await openFixture(rows, { clock, rollups: false });
  chdb = await openFixture(rows, { clock, backend: 'chdb' });
}, 60_000);
afterAll(async () => {
  await chdb?.close();
  await duck?.close();
});

const numRuns = Number(process.env.AEA_PROPERTY_RUNS ?? 15);

async function answer(engine: Engine, name: string, body: Record<string, unknown>): Promise<string> {
  try {
    return JSON.stringify(await engine.org(ids.org1).report(name)(body));
  } catch (error) {
    return `${(error as Error).constructor.name}: ${(error as Error).message}`;
  }
}

/** The fields a report accepts, as its refusal of an unknown field in an otherwise drawn request lists them. */
async function acceptedFields(s: Space): Promise<string[]> {
  const [body] = fc.sample(s.body, { numRuns: 1, seed: 1 });
  const refusal = await answer(duck, s.name, { ...body, filters: [{ field: 'no_such_field', value: 'x' }] });
  return [...(/this report filters on ([^;]*)/.exec(refusal)?.[1] ?? '').matchAll(/'([a-z_]+)'/g)].map((m) => m[1]!);
}

describe('DuckDB and chdb give identical answers over the tabular reports', () => {
  it('draws every filter field each report accepts', async () => {
    const undrawn: string[] = [];
    for (const s of spaces) {
      const accepted = await acceptedFields(s);
      if (accepted.length === 0) undrawn.push(`${s.name}: its accepted fields could not be read`);
      for (const f of accepted) if (!s.fields.some((d) => d.name === f)) undrawn.push(`${s.name}: ${f}`);
    }
    expect(undrawn).toEqual([]);
  });

  it.each(spaces)(
    '$name: random filters, dimensions, intervals, zones and DST windows',
    async ({ name, body }) => {
      let answered = 0;
      await fc.assert(
        fc.asyncProperty(body, async (b) => {
          const expected = await answer(duck, name, b);
          if (expected.startsWith('{')) answered++;
          expect(await answer(chdb, name, b)).toBe(expected);
        }),
        { numRuns },
      );
      expect(answered).toBeGreaterThan(numRuns / 6);
    },
    300_000,
  );
});
