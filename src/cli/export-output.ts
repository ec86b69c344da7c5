import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { forget, remember, sweepStaleTemp, tempPrefix } from '../engine/temp-paths.ts';
import type cliProgressModule from 'cli-progress';
import type { RowsResult } from '../reports/endpoint.ts';
import { UsageError } from './args.ts';
import type { CliIo } from './io.ts';

export interface Output {
  write(chunk: string | Uint8Array): Promise<void>;
  /**
   * Closes the file. A file export is written under a temporary name beside `--out` and renamed to it
   * only after success, so an export that fails or is interrupted (Ctrl-C, SIGTERM) never leaves a
   * file that looks complete, nor replaces the one that was there.
   */
  close(ok: boolean): Promise<void>;
}

/**
 * Where `aea query` writes: `--out FILE`, else standard output. Binary formats go to standard output
 * only when it is not a terminal (a pipe or a redirect), as curl does.
 */
export async function openOutput(io: CliIo, out: string | undefined, format: string, binary: boolean): Promise<Output> {
  if (out !== undefined) {
    sweepStaleTemp(dirname(out));
    const temp = join(dirname(out), `.${tempPrefix('out')}${randomBytes(4).toString('hex')}-${basename(out)}`);
    remember(temp);
    const file = await open(temp, 'wx');
    return {
      write: async (chunk) => void (await (typeof chunk === 'string' ? file.write(chunk) : file.write(chunk))),
      close: async (ok) => {
        try {
          await file.close();
          if (ok) await rename(temp, out);
        } finally {
          await rm(temp, { force: true });
          forget(temp);
        }
      },
    };
  }
  const stdout = io.stdout;
  if (binary && (!stdout || stdout.isTTY))
    throw new UsageError(`${format} is binary: give --out FILE, or redirect standard output to a file or a pipe`);
  return {
    write: stdout ? (chunk) => stdout.write(chunk) : async (chunk) => io.out(String(chunk)),
    close: async () => undefined,
  };
}

export interface ExportProgress {
  rows(n: number): void;
  bytes(n: number): void;
  stop(): void;
}

const sizeText = (n: number) =>
  n < 1024 ? `${n} B` : n < 1 << 20 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / (1 << 20)).toFixed(1)} MiB`;

/**
 * Rows and bytes written so far, redrawn on stderr while an export runs, when stderr is a terminal and
 * the export is not printed there. The last line stays as the export's summary.
 */
export function exportProgress(io: CliIo, label: string, toTerminal: boolean): ExportProgress {
  if (!io.stderrIsTTY || toTerminal) return { rows() {}, bytes() {}, stop() {} };
  // Required here: only an export to a terminal draws a bar.
  const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof cliProgressModule;
  const bar = new cliProgress.SingleBar({
    format: `${label} | {value} rows | {size} | {duration_formatted}`,
    stream: process.stderr,
    hideCursor: true,
    fps: 5,
  });
  let rows = 0;
  let bytes = 0;
  bar.start(0, 0, { size: sizeText(0) });
  return {
    rows: (n) => bar.update((rows += n)),
    bytes: (n) => bar.update(rows, { size: sizeText((bytes += n)) }),
    stop: () => bar.stop(),
  };
}

/** The same rows result, telling `onRows` how many rows each batch read holds. */
export function countingRows(result: RowsResult, onRows: (n: number) => void): RowsResult {
  return {
    ...result,
    read: async function* () {
      for await (const part of result.read()) {
        if ('batch' in part) onRows(part.batch.length);
        yield part;
      }
    },
  };
}
