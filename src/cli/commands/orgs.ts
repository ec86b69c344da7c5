import { openEngine } from '../../open-engine.ts';
import { parse, required } from '../args.ts';
import type { Command } from './command.ts';

export const orgs: Command = {
  usage: `aea orgs --data DIR`,
  async run(argv, io) {
    const { values } = parse(argv, { data: { type: 'string' } });
    // Listing organizations reads no report: no rollup is read back from the store or built.
    const engine = await openEngine({ data: required(values, 'data'), rollups: false });
    try {
      io.out(JSON.stringify(await engine.listOrganizations(), null, 2) + '\n');
    } finally {
      await engine.close();
    }
    return 0;
  },
};
