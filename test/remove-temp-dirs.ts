import { afterAll } from 'vitest';
import { removeTempDirs } from './helpers/tmp.ts';

// A setup file runs at the collection of every test file, so this hook runs after each file's tests.
afterAll(() => removeTempDirs());
