import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { expect } from 'vitest';

/** Compares text with a golden file; `UPDATE_GOLDEN=1 npm test` rewrites the files instead. */
export function expectGolden(file: string, text: string): void {
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    if (process.env.UPDATE_GOLDEN !== '1')
      throw new Error(`golden file ${file} was missing and has been written; run again`);
    return;
  }
  expect(text, file).toBe(readFileSync(file, 'utf8'));
}
