import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Every temporary file and folder this process makes is named `aea-<role>-<pid>-…` in the system temp
 * directory (or, for an `--out` file, beside it) and registered here until removed. The registry is
 * removed synchronously when the process exits and on SIGINT or SIGTERM; a process killed outright
 * (SIGKILL, power loss) leaves its folders, which the next start sweeps: a folder whose PID is no
 * longer running is stale.
 */

const live = new Set<string>();
const signals = ['SIGINT', 'SIGTERM'] as const;
const exitCodes: Record<(typeof signals)[number], number> = { SIGINT: 130, SIGTERM: 143 };

function removeAll(): void {
  for (const path of live) rmSync(path, { recursive: true, force: true });
  live.clear();
}

// TRICKY: a signal with no other listener would end the process at once, leaving every temp path; with
// one (aea serve waits for it to close gracefully) the others decide when to stop. Alone, this listener
// removes the paths and exits as the signal would have.
function onSignal(signal: (typeof signals)[number]): void {
  removeAll();
  if (process.listenerCount(signal) === 1) {
    uninstall();
    process.exit(exitCodes[signal]);
  }
}

const handlers = Object.fromEntries(signals.map((s) => [s, () => onSignal(s)])) as Record<
  (typeof signals)[number],
  () => void
>;
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  // First, so the count it reads includes a `once` listener (aea serve's) that removes itself when called.
  for (const s of signals) process.prependListener(s, handlers[s]);
  process.on('exit', removeAll);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  for (const s of signals) process.off(s, handlers[s]);
  process.off('exit', removeAll);
}

/** The name prefix of this process's temporary paths of one role (`parquet`, `chdb`, `out`…). */
export const tempPrefix = (role: string): string => `aea-${role}-${process.pid}-`;

/** Keeps `path` until `forget`; it is removed if the process stops first. */
export function remember(path: string): void {
  live.add(path);
  install();
}

export function forget(path: string): void {
  live.delete(path);
  if (live.size === 0) uninstall();
}

/** A new registered folder `aea-<role>-<pid>-XXXXXXXX` in the system temp directory. */
export async function tempFolder(role: string): Promise<string> {
  // TRICKY: registered before it exists: a signal handled between its creation and a later registration
  // (the folder already on disk, the await not yet resumed) would leave it behind.
  for (;;) {
    const dir = join(tmpdir(), `${tempPrefix(role)}${randomBytes(6).toString('base64url')}`);
    remember(dir);
    try {
      await mkdir(dir, { mode: 0o700 });
      return dir;
    } catch (error) {
      forget(dir);
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/**
 * A registered path for DuckDB's spill files (`aea-spill-<pid>-…`), not created: DuckDB makes the
 * folder when a statement first spills, so an engine that never spills leaves nothing to remove.
 */
export function spillFolder(): string {
  const dir = join(tmpdir(), `${tempPrefix('spill')}${randomBytes(6).toString('base64url')}`);
  remember(dir);
  return dir;
}

export function tempFolderSync(role: string): string {
  const dir = mkdtempSync(join(tmpdir(), tempPrefix(role)));
  remember(dir);
  return dir;
}

/** Removes a registered path and forgets it. */
export async function removeTemp(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true });
  forget(path);
}

export function removeTempSync(path: string): void {
  rmSync(path, { recursive: true, force: true });
  forget(path);
}

const running = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** `aea-<role>-<pid>-…` (an `--out` file's: `.aea-out-<pid>-…`): the PID of the process that made it. */
const owner = /^\.?aea-[a-z]+-(\d+)-/;

/**
 * Removes the temporary folders and files of processes no longer running from `dir` (the system temp
 * directory by default): only names with this code's prefix and a PID, so nothing else is touched.
 * Answers the names removed.
 */
export function sweepStaleTemp(dir: string = tmpdir()): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const stale = names.filter((name) => {
    const pid = Number(owner.exec(name)?.[1]);
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && !running(pid);
  });
  for (const name of stale) rmSync(join(dir, name), { recursive: true, force: true });
  return stale;
}
