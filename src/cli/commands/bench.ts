import type { Command } from './command.ts';

/** The bench and its peers (devDependencies) load only when the command runs, never at CLI start. */
export const bench: Command = {
  summary: 'benchmark every report against hand-written DuckDB SQL and peers (see bench/RESULTS.md)',
  usage: 'aea bench [--scale S]... [--data DIR]... [--only REPORT]... [--iterations N] [--no-peers]   (aea bench --usage for every option)',
  async run(argv, io) {
    const { benchMain, benchUsage } = await import('../../../bench/main.ts');
    const { AnswerMismatch } = await import('../../../bench/lib/answers.ts');
    if (argv.includes('--usage')) {
      io.out(`${benchUsage}\n`);
      return 0;
    }
    try {
      return await benchMain(argv);
    } catch (error) {
      if (!(error instanceof AnswerMismatch)) throw error;
      io.err(`aea bench: ${error.message}\n`);
      return 1;
    }
  },
};
