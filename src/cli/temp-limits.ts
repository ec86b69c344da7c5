import { parseBytes } from '../engine/memory-budget.ts';
import { UsageError } from './args.ts';

/** `--export-temp-limit` and `--temp-limit` as engine options; a size that does not read is a usage error. */
export function tempLimits(values: Record<string, unknown>): { exportTempLimit?: string; tempLimit?: string } {
  const out: { exportTempLimit?: string; tempLimit?: string } = {};
  for (const [flag, key] of [
    ['export-temp-limit', 'exportTempLimit'],
    ['temp-limit', 'tempLimit'],
  ] as const) {
    const v = values[flag];
    if (typeof v !== 'string') continue;
    try {
      parseBytes(v);
    } catch (error) {
      throw new UsageError(`--${flag}: ${(error as Error).message}`);
    }
    out[key] = v;
  }
  return out;
}
