import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { generateDataset } from '../../src/generate/generate.ts';
import { generatorFingerprint } from '../../src/generate/sample.ts';
import { silentProgress, stderrProgress } from '../../src/generate/progress.ts';
import { manifestFileName } from '../../src/model/layout.ts';
import type { IterationParams } from './case.ts';

export interface BenchDataset {
  readonly dir: string;
  readonly scale: number;
  readonly rows: Record<string, number>;
  /** The first and last day with answers (America/New_York). */
  readonly firstDay: string;
  readonly lastDay: string;
  /** Every category with its organization, its own brand and a domain of its organization, in a fixed order. */
  readonly categories: readonly BenchCategory[];
  readonly generated: boolean;
}

export interface BenchCategory {
  readonly organizationId: string;
  readonly categoryId: string;
  readonly asset: string;
  readonly domain: string;
}

interface Manifest {
  scale: number;
  fingerprint: string | null;
  window: { start: string; days: number };
  rows: Record<string, number>;
}

export const defaultDataDir = (scale: number) => resolve('bench', 'data', `scale-${scale}`);

const readManifest = (dir: string): Manifest | undefined =>
  existsSync(join(dir, manifestFileName))
    ? (JSON.parse(readFileSync(join(dir, manifestFileName), 'utf8')) as Manifest)
    : undefined;

/**
 * The dataset to bench: `--data DIR` as given, or bench/data/scale-S, generated when missing or made by
 * another generator (a dataset written without a fingerprint, e.g. by bench:generate, is reused as is).
 */
export async function resolveDataset(
  scale: number,
  dataDir: string | undefined,
  quiet: boolean,
): Promise<Omit<BenchDataset, 'categories'>> {
  const dir = resolve(dataDir ?? defaultDataDir(scale));
  let manifest = readManifest(dir);
  let generated = false;
  if (
    dataDir === undefined &&
    (!manifest ||
      manifest.scale !== scale ||
      (manifest.fingerprint !== null && manifest.fingerprint !== generatorFingerprint()))
  ) {
    await generateDataset({
      out: dir,
      scale,
      seed: 1,
      fingerprint: generatorFingerprint(),
      progress: quiet ? silentProgress : stderrProgress(`generate scale ${scale}`),
    });
    manifest = readManifest(dir);
    generated = true;
  }
  if (!manifest) throw new Error(`${dir} holds no ${manifestFileName}: not a generated dataset`);
  const first = manifest.window.start;
  const last = addDays(first, manifest.window.days - 1);
  return { dir, scale: manifest.scale, rows: manifest.rows, firstDay: first, lastDay: last, generated };
}

export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Iteration `i`'s parameters for a window of `days`: categories rotate and the window's end walks back
 * a day at a time, so every iteration is a query DuckDB has not just answered.
 */
export function iterationParams(dataset: BenchDataset, days: number, i: number): IterationParams {
  const c =
    dataset.categories[((i % dataset.categories.length) + dataset.categories.length) % dataset.categories.length]!;
  const room = Math.max(1, Math.min(30, daysBetween(dataset.firstDay, dataset.lastDay) + 2 - days));
  const end = addDays(dataset.lastDay, -(((i % room) + room) % room));
  return {
    organizationId: c.organizationId,
    categoryId: c.categoryId,
    asset: c.asset,
    domain: c.domain,
    startDate: addDays(end, -(days - 1)),
    endDate: end,
  };
}

const daysBetween = (a: string, b: string) =>
  Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
