/** What a command may touch of its process, so the same command runs from a shell and in a test. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  stdin(): Promise<string>;
  /** Resolves when the command should stop (SIGINT or SIGTERM for a real process). */
  stopped(): Promise<void>;
}

export const processIo: CliIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  stdin: async () => {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  stopped: () =>
    new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }),
};
