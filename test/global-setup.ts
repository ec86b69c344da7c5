import { ensureSample } from '../src/generate/sample.ts';

export default async function setup(): Promise<void> {
  await ensureSample();
}
