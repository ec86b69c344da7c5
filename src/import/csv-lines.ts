import { createReadStream } from 'node:fs';

const quote = 0x22;
const newline = 0x0a;
const carriageReturn = 0x0d;

/**
 * The line each of some CSV records starts on, counting the header's line as 1 as an editor does: a
 * quoted field's line breaks and blank lines (which CSV readers skip) are lines too. Record 1 is the
 * first after the header. One pass over the file in 64 KiB chunks, stopping after the last record asked
 * for; only the asked records are kept.
 */
export async function csvRecordLines(file: string, records: readonly number[]): Promise<Map<number, number>> {
  const wanted = new Set(records);
  const last = Math.max(0, ...records);
  const lines = new Map<number, number>();
  let line = 1;
  let record = -1;
  let atStart = true;
  let quoted = false;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 16 }) as AsyncIterable<Buffer>) {
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (byte === newline) {
        line++;
        if (!quoted) atStart = true;
        continue;
      }
      if (byte === carriageReturn) continue;
      if (atStart) {
        atStart = false;
        record++;
        if (wanted.has(record)) lines.set(record, line);
      }
      if (byte === quote) quoted = !quoted;
    }
    if (record > last) break;
  }
  return lines;
}
