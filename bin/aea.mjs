#!/usr/bin/env node
// The built JavaScript runs: the installed package ships dist/ only, and a clone builds it on `npm ci`.
// A clone runs its sources through tsx instead when a source file is newer than the build (dist/ would be
// stale) or there is no build, and for `aea bench`, whose TypeScript lives beside src/ and is never built.
import { existsSync, readdirSync, statSync } from 'node:fs';

const built = new URL('../dist/aea/main.js', import.meta.url);
const sources = new URL('../src/', import.meta.url);

/** Whether a file under src/ changed after the build: about 250 stat calls, some milliseconds. */
function sourcesNewerThanBuild() {
  const builtAt = statSync(built).mtimeMs;
  return readdirSync(sources, { recursive: true, withFileTypes: true }).some((e) => e.isFile() && statSync(`${e.parentPath}/${e.name}`).mtimeMs > builtAt);
}

const fromSources = existsSync(sources) && (!existsSync(built) || process.argv[2] === 'bench' || sourcesNewerThanBuild());
await import(fromSources ? new URL('../src/cli/aea.mjs', import.meta.url).href : built.href);
