import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeSample } from '../../generate/sample.ts';
import { stderrProgress } from '../../generate/progress.ts';
import { manifestFileName } from '../../model/layout.ts';
import { parse, required, UsageError } from '../args.ts';
import type { Command } from './command.ts';

export const sample: Command = {
  usage: `aea sample --out DIR

  --out DIR     folder to write: the bundled sample, four organizations from October 2025 to November 2026
                (about 5 MB, written in 10 to 30 seconds). A folder that exists must be empty or
                a dataset, which is replaced

Then: aea orgs --data DIR, aea query PATH --data DIR --org ORG_ID …, aea serve --data DIR`,
  async run(argv, io) {
    const { values } = parse(argv, { out: { type: 'string' } });
    const out = required(values, 'out');
    // Writing replaces the folder: never one that holds something other than a dataset.
    if (
      existsSync(out) &&
      (!statSync(out).isDirectory() || (readdirSync(out).length > 0 && !existsSync(join(out, manifestFileName))))
    ) {
      throw new UsageError(
        `${out} is neither empty nor a dataset folder (no ${manifestFileName}): choose another --out`,
      );
    }
    const result = await writeSample(out, stderrProgress('sample'));
    io.out(JSON.stringify(result, null, 2) + '\n');
    return 0;
  },
};
