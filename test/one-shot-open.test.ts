import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../src/open-engine.ts';
import type { Engine } from '../src/library/engine.ts';
import { sampleDir } from '../src/generate/sample.ts';
import { everyReportCases, page, rowsOf, sampleScopes, type Scopes } from './helpers/every-report.ts';
import { firstDifference } from './helpers/answers.ts';

/**
 * `aea query` opens the engine for one answer: no rollups, and the small tables read from their files
 * rather than copied into memory. Every report answers byte for byte as an engine with the defaults.
 */
let usual: Engine;
let oneShot: Engine;
let scopes: Scopes;

beforeAll(async () => {
  const clock = () => new Date('2026-11-20T12:00:00Z');
  usual = await openEngine({ data: sampleDir, cursorSecret: 'one-shot', clock });
  oneShot = await openEngine({
    data: sampleDir,
    cursorSecret: 'one-shot',
    clock,
    rollups: false,
    smallTablesInMemory: false,
  });
  scopes = await sampleScopes(usual);
}, 120_000);
afterAll(async () => {
  await oneShot?.close();
  await usual?.close();
});

describe('the engine as aea query opens it', () => {
  it('reads the small tables from their files', async () => {
    const kinds = async (engine: Engine) =>
      (
        await engine.core.pool.use((c) =>
          c.runAndReadAll(
            `SELECT count(*) FROM duckdb_tables() WHERE table_name IN ('models', 'regions', 'page_analyses')`,
          ),
        )
      ).getRowsJS()[0]![0];
    expect(Number(await kinds(usual))).toBe(3);
    expect(Number(await kinds(oneShot))).toBe(0);
  });

  it('answers every report path as the defaults do, before and after the rollups are built', async () => {
    for (const round of ['first', 'with rollups']) {
      for (const c of everyReportCases(scopes)) {
        const expected = (await page(usual, c)) as Record<string, unknown>;
        expect(rowsOf(expected), c.path).toBeGreaterThan(0);
        expect(firstDifference(await page(oneShot, c), expected), `${round}: ${c.path}`).toBeUndefined();
      }
      await usual.core.rollups.settled();
    }
    const visibility = everyReportCases(scopes).find((c) => c.path === '/v2/reports/visibility')!;
    const explained = (await usual.org(visibility.scope.org).report('visibility')(visibility.body as never, {
      explain: true,
    })) as { explain: { rollups: { chosen: string[] } } };
    expect(explained.explain.rollups.chosen).toEqual(['visibility_daily']);
  }, 300_000);
});
