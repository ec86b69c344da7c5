import type { CliIo } from '../io.ts';

export interface Command {
  readonly summary: string;
  readonly usage: string;
  run(argv: string[], io: CliIo): Promise<number>;
}
