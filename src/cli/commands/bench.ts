import type { Command } from './command.ts';

interface BenchModule {
  benchMain(argv: string[]): Promise<number>;
  readonly benchUsage: string;
}

interface AnswersModule {
  readonly AnswerMismatch: abstract new (...args: never[]) => Error;
}

/**
 * The bench lives beside src in a clone of the repository, never in the published package: its modules
 * are loaded by URL so the package build does not follow them, and only when the command runs.
 */
const benchModule = (path: string) => new URL(`../../../bench/${path}`, import.meta.url).href;

export const bench: Command = {
  usage:
    'aea bench [--scale S]... [--data DIR]... [--only REPORT]... [--iterations N] [--no-peers]   (aea bench --usage for every option)',
  async run(argv, io) {
    let main: BenchModule;
    let answers: AnswersModule;
    try {
      main = (await import(benchModule('main.ts'))) as BenchModule;
      answers = (await import(benchModule('lib/answers.ts'))) as AnswersModule;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw error;
      io.err(
        'aea bench: the bench runs from a clone of the repository (npx aea bench), not from the installed package\n',
      );
      return 1;
    }
    if (argv.includes('--usage')) {
      io.out(`${main.benchUsage}\n`);
      return 0;
    }
    try {
      return await main.benchMain(argv);
    } catch (error) {
      if (!(error instanceof answers.AnswerMismatch)) throw error;
      io.err(`aea bench: ${error.message}\n`);
      return 1;
    }
  },
};
