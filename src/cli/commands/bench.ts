import { AnswerMismatch } from '../../../bench/lib/answers.ts';
import { benchMain, benchUsage } from '../../../bench/main.ts';
import type { Command } from './command.ts';

export const bench: Command = {
  summary: 'benchmark every report against hand-written DuckDB SQL and peers (see bench/RESULTS.md)',
  usage: benchUsage,
  async run(argv) {
    try {
      return await benchMain(argv);
    } catch (error) {
      if (!(error instanceof AnswerMismatch)) throw error;
      process.stderr.write(`aea bench: ${error.message}\n`);
      return 1;
    }
  },
};
