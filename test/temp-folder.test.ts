import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeTemp, tempFolder, tempPrefix } from '../src/engine/temp-paths.ts';

describe('a temporary folder', () => {
  it('is registered for removal on a signal before it exists, so a signal in between cannot leave it', async () => {
    const before = process.listenerCount('SIGINT');
    const pending = tempFolder('race');
    // Nothing was registered before this call in this file's process: the call installed the handler at once.
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    const dir = await pending;
    expect(basename(dir).startsWith(tempPrefix('race'))).toBe(true);
    expect(existsSync(dir)).toBe(true);
    await removeTemp(dir);
    expect(existsSync(dir)).toBe(false);
    expect(process.listenerCount('SIGINT')).toBe(before);
  });
});
