import type { CliIo } from '../io.ts';

/** One `aea` command; its summary for `aea --help` is in ./index.ts, so listing commands loads none. */
export interface Command {
  readonly usage: string;
  run(argv: string[], io: CliIo): Promise<number>;
}
