import { describe, expect, it } from 'vitest';
import { inPlaceView } from '../src/engine/rollup-views.ts';

const columns = [
  { name: 'category_id', type: 'VARCHAR' },
  { name: 'day', type: 'DATE' },
  { name: 'n', type: 'HUGEINT' },
];
const span = { from: '2026-11-14 00:00:00.000000', to: '2026-11-16 00:00:00.000000' };

describe('a stored rollup read in place', () => {
  it("reads each scope's layers, less the rows a later segment of that scope replaces, cast to the built types", () => {
    expect(
      inPlaceView('rollup_x_t', columns, [
        {
          layers: [
            { file: '/s/a/t.parquet', rows: 3, span: null },
            { file: '/s/a/t.1.parquet', rows: 1, span },
          ],
          time: 'day',
        },
        { layers: [{ file: "/s/it's/t.parquet", rows: 2, span: null }], time: null },
      ]),
    ).toBe(
      `CREATE VIEW "rollup_x_t" AS SELECT CAST("category_id" AS VARCHAR) AS "category_id", CAST("day" AS DATE) AS "day", CAST("n" AS HUGEINT) AS "n" FROM (` +
        `SELECT * FROM read_parquet('/s/a/t.parquet') WHERE NOT ("day" BETWEEN TIMESTAMP '2026-11-14 00:00:00.000000' AND TIMESTAMP '2026-11-16 00:00:00.000000')` +
        ` UNION ALL BY NAME SELECT * FROM read_parquet('/s/a/t.1.parquet')` +
        ` UNION ALL BY NAME SELECT * FROM read_parquet('/s/it''s/t.parquet'))`,
    );
  });

  it('refuses a name, type, time key or span unlike those the engine writes, since a view binds no parameter', () => {
    const layers = (s: { from: string; to: string }) => [
      {
        layers: [
          { file: '/a', rows: 1, span: null },
          { file: '/b', rows: 1, span: s },
        ],
        time: 'day',
      },
    ];
    expect(() => inPlaceView('rollup_x_t', columns, layers({ from: "2026-11-14' OR 1=1 --", to: span.to }))).toThrow(
      /span/,
    );
    expect(() => inPlaceView('rollup_x_t', [{ name: 'n', type: 'INT); DROP TABLE x; --' }], layers(span))).toThrow(
      /column type/,
    );
    expect(() => inPlaceView('rollup_x_t', [{ name: 'n"', type: 'INT' }], layers(span))).toThrow(/column/);
    expect(() => inPlaceView('Rollup"x', columns, layers(span))).toThrow(/table name/);
    expect(() => inPlaceView('rollup_x_t', columns, [{ layers: layers(span)[0]!.layers, time: null }])).toThrow(
      /time key/,
    );
  });
});
