import { Worker } from 'node:worker_threads';

/**
 * Run from the sources (tsx, vitest) the worker is TypeScript, and loader hooks are per thread: its boot
 * file registers tsx there first. Built, it is plain JavaScript beside this file and needs no loader.
 */
const fromSources = import.meta.url.endsWith('.ts');

/** Starts the knowledge-base search worker thread. */
export function startSearchWorker(): Worker {
  // From the folder up, so the bundled CLI's chunks (dist/aea/) find it too.
  if (!fromSources) return new Worker(new URL('../knowledge/search-worker.js', import.meta.url));
  return new Worker(new URL('./search-worker-boot.mjs', import.meta.url), {
    workerData: { module: new URL('./search-worker.ts', import.meta.url).href },
  });
}
