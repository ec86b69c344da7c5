export interface Command {
  readonly summary: string;
  readonly usage: string;
  run(argv: string[]): Promise<number>;
}
