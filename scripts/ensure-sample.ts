import { ensureSample } from '../src/generate/sample.ts';

// Mutation mode reads data/sample as built here, from the clean sources (test/mutation-setup.ts).
process.stdout.write(`${await ensureSample()}\n`);
