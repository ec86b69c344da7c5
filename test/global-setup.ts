import { ensureSample } from '../src/generate/sample.ts';
import { watchTemp } from './temp-watch.ts';

/** The suite's setup: data/sample built (or rebuilt when the generator changed), then the temp directory watched. */
export default async function setup(): Promise<() => void> {
  await ensureSample();
  return watchTemp();
}
