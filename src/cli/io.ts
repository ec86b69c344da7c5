/** What a command may touch of its process, so the same command runs from a shell and in a test. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  stdin(): Promise<string>;
  /** Resolves when the command should stop (SIGINT or SIGTERM for a real process). */
  stopped(): Promise<void>;
  /** Standard output for exports: bytes too, each write waiting for the pipe to drain. Absent where output is captured as text. */
  readonly stdout?: ByteOut;
  /** Whether stderr is a terminal (progress bars redraw there). */
  readonly stderrIsTTY?: boolean;
}

export interface ByteOut {
  readonly isTTY: boolean;
  write(chunk: string | Uint8Array): Promise<void>;
}

export const processIo: CliIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  stdin: async () => {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  stdout: {
    isTTY: process.stdout.isTTY === true,
    write: (chunk) =>
      new Promise(
        (resolve, reject) => void process.stdout.write(chunk, (error) => (error ? reject(error) : resolve())),
      ),
  },
  stderrIsTTY: process.stderr.isTTY === true,
  stopped: () =>
    new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }),
};
