import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

export interface DataDirLock {
  readonly path: string;
  release(): Promise<void>;
}

/** Thrown when another live process owns the data folder. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly ownerPid: number,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by process ${ownerPid}: the embedded stores belong to one process. ` +
        'Give each process its own DATA_DIR, or set MONGODB_URL/QDRANT_URL to run several instances of a service.',
    );
    this.name = 'DataDirLockedError';
  }
}

const LOCK_FILE = 'palaver.lock';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Takes the data folder for this process: `DATA_DIR/palaver.lock` holds the owner's pid, created
 * exclusively. A lock whose pid is no longer running (the owner was killed) is stale and taken
 * over; a live owner's is refused with DataDirLockedError.
 */
export const lockDataDir = async (dataDir: string): Promise<DataDirLock> => {
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, 'wx', 0o600);
      await handle.writeFile(`${process.pid}\n`);
      await handle.sync();
      await handle.close();
      let released = false;
      return {
        path,
        async release() {
          if (released) return;
          released = true;
          const owner = await readOwner(path);
          if (owner === process.pid) await rm(path, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await readOwner(path);
    if (owner !== null && owner !== process.pid && alive(owner)) throw new DataDirLockedError(dataDir, owner);
    if (owner === process.pid) throw new DataDirLockedError(dataDir, owner);
    // Stale (its owner is gone, or the file is empty from a crash mid-write): take it over.
    await rm(path, { force: true });
  }
  throw new Error(`could not lock DATA_DIR ${dataDir}`);
};

const readOwner = async (path: string): Promise<number | null> => {
  const text = await readFile(path, 'utf8').catch(() => '');
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
};
