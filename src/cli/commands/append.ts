import { appendParts } from '../../import/append-parts.ts';
import { parse, required } from '../args.ts';
import type { Command } from './command.ts';

export const append: Command = {
  usage: `aea append --data DIR --from NEW

  --data DIR   the dataset folder to add rows to
  --from NEW   a folder laid out like a dataset holding only fact tables (a new day's mentions/, bot_events/…),
               with the dataset's columns and types

Adds each table's rows as one new part (sorted as the contract says) and records it in the dataset's
manifest; the files already there are not touched, so stored rollups (aea rollups) refresh only the
days the new parts hold. Stop aea serve first, or restart it after: an open engine reads the files it found.`,
  async run(argv, io) {
    const { values } = parse(argv, { data: { type: 'string' }, from: { type: 'string' } });
    const parts = await appendParts(required(values, 'data'), required(values, 'from'));
    io.out(JSON.stringify(parts, null, 2) + '\n');
    return 0;
  },
};
