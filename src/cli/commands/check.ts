import { checkDataset } from '../../engine/dataset-check.ts';
import { parse, UsageError } from '../args.ts';
import type { Command } from './command.ts';

export const check: Command = {
  usage: `aea check DIR [--json]

Reads every file of the dataset folder DIR against the data contract (docs/data-model.md) and lists
every problem at once:
  error    the engine refuses to open it: an unreadable file, a missing column, a wrong type, a value
           that does not fit, nulls in a required column, a missing organizations table, a table
           dataset.json records that is missing, a table file or folder that is a dangling link or loop;
           or a key of a dimension table on more than one row (across its files)
  warning  a missing table: the operations that read it refuse (each is named)
  slow     a large table whose rows are not ordered by tenant and time: reports read all of it
--json prints the problems as a JSON array instead.
Exit code: 0 when there is no error (warnings and slow files allowed), 1 otherwise.`,
  async run(argv, io) {
    const { values, positionals } = parse(argv, { json: { type: 'boolean' } });
    const dir = positionals[0];
    if (!dir) throw new UsageError('DIR is required: the dataset folder to check');
    const problems = await checkDataset(dir);
    if (values.json) io.out(JSON.stringify(problems, null, 2) + '\n');
    else {
      for (const p of problems) io.out(`${p.severity.padEnd(8)} ${p.message}\n`);
      const count = (s: string) => problems.filter((p) => p.severity === s).length;
      io.out(
        problems.length === 0
          ? `${dir}: no problems\n`
          : `${dir}: ${count('error')} errors, ${count('warning')} warnings, ${count('slow')} slow files\n`,
      );
    }
    return problems.some((p) => p.severity === 'error') ? 1 : 0;
  },
};
