#!/usr/bin/env node
// Runs the TypeScript CLI directly: tsx registers a loader, so `npx aea` needs no build step.
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
