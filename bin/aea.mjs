#!/usr/bin/env node
// In a clone of the repository src/ is present and runs through tsx, so `npx aea` needs no build and
// never runs a stale dist/. The installed package ships dist/ only and runs the built JavaScript.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/aea.mjs', import.meta.url);
await import(existsSync(source) ? source.href : '../dist/cli/main.js');
