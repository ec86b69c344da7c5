import { describe, expect, it } from 'vitest';
import { boxCellWidth, boxTable, boxTableRows } from '../src/formats/box-table.ts';
import { field, object, value, type ColumnBatch, type RowShape } from '../src/query/row-shape.ts';
import type { RowsResult } from '../src/query/rows-result.ts';

/** The CLI's `--format table` (src/formats/box-table.ts) drawn in process, to the character. */

const rowsOf = (shape: RowShape, batches: ColumnBatch[]): RowsResult => ({
  kind: 'rows',
  framing: 'page',
  shape,
  read: async function* () {
    yield { head: { total: 0 } };
    for (const batch of batches) yield { batch };
  },
});

const shape: RowShape = {
  fields: [
    field('asset', object([field('name', value('name', 'text')), field('id', value('id', 'text'))], 'id')),
    field('n', value('n', 'integer')),
    field('score', value('score', 'float')),
  ],
};

describe('the box table', () => {
  it('draws a header of dotted paths, text on the left, numbers on the right, NULL on the left, and counts the rows', async () => {
    const batch: ColumnBatch = {
      length: 3,
      columns: {
        name: ['Acme', 'Bé', 'x'],
        id: ['a1', 'b22', null],
        n: [7n, 12345, null],
        score: [0.5, null, 3],
      },
    };
    expect(await boxTable(rowsOf(shape, [batch]))).toBe(
      [
        '┌────────────┬──────────┬───────┬───────┐',
        '│ asset.name │ asset.id │ n     │ score │',
        '├────────────┼──────────┼───────┼───────┤',
        '│ Acme       │ a1       │     7 │   0.5 │',
        '│ Bé         │ b22      │ 12345 │ NULL  │',
        '│ NULL       │ NULL     │ NULL  │     3 │',
        '└────────────┴──────────┴───────┴───────┘',
        '3 rows',
        '',
      ].join('\n'),
    );
  });

  it('shows each line break as ↵, counts characters (not UTF-16 units) and cuts a wide cell, or header, to its width', async () => {
    const wide = 'é'.repeat(boxCellWidth + 5);
    const long = 'h'.repeat(boxCellWidth + 1);
    const one: RowShape = { fields: [field(long, value('t', 'text')), field('e', value('e', 'text'))] };
    const batch: ColumnBatch = { length: 1, columns: { t: ['a\r\nb\nc\rd'], e: [`😀${wide}`] } };
    const cut = `${'h'.repeat(boxCellWidth - 1)}…`;
    const cell = `😀${'é'.repeat(boxCellWidth - 2)}…`;
    expect([...cell]).toHaveLength(boxCellWidth);
    expect(await boxTable(rowsOf(one, [batch]))).toBe(
      [
        `┌─${'─'.repeat(boxCellWidth)}─┬─${'─'.repeat(boxCellWidth)}─┐`,
        `│ ${cut} │ e${' '.repeat(boxCellWidth - 1)} │`,
        `├─${'─'.repeat(boxCellWidth)}─┼─${'─'.repeat(boxCellWidth)}─┤`,
        `│ a↵b↵c↵d${' '.repeat(boxCellWidth - 7)} │ ${cell} │`,
        `└─${'─'.repeat(boxCellWidth)}─┴─${'─'.repeat(boxCellWidth)}─┘`,
        '1 row',
        '',
      ].join('\n'),
    );
    const exact = 'w'.repeat(boxCellWidth);
    const drawn = await boxTable(rowsOf(one, [{ length: 1, columns: { t: [exact], e: [''] } }]));
    expect(drawn.split('\n')[3]).toBe(`│ ${exact} │   │`);
  });

  it('draws a result without rows as its header alone', async () => {
    expect(await boxTable(rowsOf(shape, []))).toBe(
      [
        '┌────────────┬──────────┬───┬───────┐',
        '│ asset.name │ asset.id │ n │ score │',
        '├────────────┼──────────┼───┼───────┤',
        '└────────────┴──────────┴───┴───────┘',
        '0 rows',
        '',
      ].join('\n'),
    );
  });

  it(`draws at most ${boxTableRows.toLocaleString('en-US')} rows, reads the rest across batches and counts them`, async () => {
    const n: RowShape = { fields: [field('n', value('n', 'integer'))] };
    const batch = (from: number, length: number): ColumnBatch => ({
      length,
      columns: { n: Array.from({ length }, (_, i) => from + i) },
    });
    const at = async (batches: ColumnBatch[]) => (await boxTable(rowsOf(n, batches))).trimEnd().split('\n');
    const full = await at([batch(1, 600), batch(601, 400)]);
    expect(full).toHaveLength(4 + boxTableRows + 1);
    expect(full.at(-1)).toBe('1,000 rows');
    expect(full.at(-2)).toBe('└──────┘');
    expect(full.at(-3)).toBe('│ 1000 │');
    const over = await at([batch(1, 600), batch(601, 2_500)]);
    expect(over).toHaveLength(4 + boxTableRows + 1);
    expect(over.at(-3)).toBe('│ 1000 │');
    expect(over.at(-1)).toBe('1,000 of 3,100 rows shown (--format csv or ndjson for all)');
  });
});
