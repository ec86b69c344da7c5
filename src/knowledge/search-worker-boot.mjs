// The search worker is TypeScript: register tsx's loader in the worker thread (loader hooks are per thread), then load it.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
