import { ExportTooLargeError, TempDiskBusyError } from '../errors.ts';
import { defaultExportTempBytes, defaultTempBytes } from '../limits.ts';
import { parseBytes, type ByteSize } from './memory-budget.ts';

/** One export's share of the process's temporary disk, taken as it writes and given back at its end. */
export interface TempAccount {
  /** Takes `bytes` more, or throws: ExportTooLargeError past the export's bound, TempDiskBusyError past the process's. */
  take(bytes: number): void;
  /** Gives back `bytes` of what it took (a file removed before the end). */
  give(bytes: number): void;
  release(): void;
}

/** The temporary disk of the process's exports: a bound per export and one for all of them together. */
export class TempDisk {
  private held = 0;
  readonly perExport: number;
  readonly total: number;

  constructor(perExport: ByteSize = defaultExportTempBytes, total: ByteSize = defaultTempBytes) {
    this.perExport = parseBytes(perExport);
    this.total = parseBytes(total);
  }

  /** Bytes held by the exports under way. */
  get used(): number {
    return this.held;
  }

  account(): TempAccount {
    let mine = 0;
    return {
      take: (bytes) => {
        if (mine + bytes > this.perExport) throw new ExportTooLargeError(this.perExport);
        if (this.held + bytes > this.total) throw new TempDiskBusyError(this.total);
        mine += bytes;
        this.held += bytes;
      },
      give: (bytes) => {
        const back = Math.min(bytes, mine);
        mine -= back;
        this.held -= back;
      },
      release: () => {
        this.held -= mine;
        mine = 0;
      },
    };
  }
}

/** The bounds of callers without an engine (encodeRows alone): the defaults, shared by the process. */
export const defaultTempDisk = new TempDisk();
