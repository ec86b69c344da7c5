import { generateDataset } from '../../generate/generate.ts';
import { stderrProgress } from '../../generate/progress.ts';
import { number, parse, required } from '../args.ts';
import type { Command } from './command.ts';

export const generate: Command = {
  usage: `aea generate --out DIR [--scale S] [--seed N]

  --out DIR     folder to write (replaced if it exists)
  --scale S     about S million executions a year, up to 100 (default 1); about 18 M rows and 0.17 GB
                of Parquet per unit of scale. Memory stays under 8 GB at any scale: above scale 10 each
                category is written as a part per run of days
  --seed N      integer seed; the same seed and scale give identical tables (default 1)`,
  async run(argv, io) {
    const { values } = parse(argv, { out: { type: 'string' }, scale: { type: 'string' }, seed: { type: 'string' } });
    const result = await generateDataset({
      out: required(values, 'out'),
      scale: number(values, 'scale', 1),
      seed: number(values, 'seed', 1),
      progress: stderrProgress('generate'),
    });
    io.out(JSON.stringify(result, null, 2) + '\n');
    return 0;
  },
};
