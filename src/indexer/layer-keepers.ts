import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import type { IndexStorage, WriteHold } from '../store/index-storage.js';
import type { IndexFilters } from '../stored-filters.js';

/** The folder of a local layer where each process keeping it current (watch, mcp) leaves a file named by its pid. */
const KEEPERS_DIR = 'keepers';

/** What a keeper file says. */
interface Keeper {
  readonly host: string;
  readonly pid: number;
  readonly startedAt: string;
}

/**
 * Whether a live process on this machine keeps the local layer in `dir` current. A layer nobody keeps is only as
 * fresh as the last watch that ran: it may shadow shared files with edits since undone or hide files since restored,
 * so readers leave it out.
 */
export async function isLayerKept(dir: string): Promise<boolean> {
  let names: string[];
  try {
    names = await readdir(path.join(dir, KEEPERS_DIR));
  } catch {
    return false; // no keeper ever wrote here
  }
  for (const name of names) {
    let keeper: Keeper;
    try {
      keeper = JSON.parse(await readFile(path.join(dir, KEEPERS_DIR, name), 'utf8')) as Keeper;
    } catch {
      continue; // being written or removed right now
    }
    if (keeper.host === hostname() && isAlive(keeper.pid)) return true;
  }
  return false;
}

/**
 * The local layer's storage, marked as kept by this process for as long as it is open: a keeper file is written
 * now and removed on close (a killed keeper leaves one behind, whose dead pid readers see through).
 */
export async function keptLayer(storage: IndexStorage, dir: string): Promise<IndexStorage> {
  const file = path.join(dir, KEEPERS_DIR, `${process.pid}.json`);
  await mkdir(path.dirname(file), { recursive: true });
  const keeper: Keeper = { host: hostname(), pid: process.pid, startedAt: new Date().toISOString() };
  await writeFile(file, JSON.stringify(keeper));
  return {
    get catalog() {
      return storage.catalog;
    },
    get vectors() {
      return storage.vectors;
    },
    holdForWrite: (options: { readonly waitMs: number }): Promise<WriteHold> => storage.holdForWrite(options),
    replaceDamaged: (error: unknown, note: (message: string) => void) => storage.replaceDamaged(error, note),
    sharedGlobs: () => storage.sharedGlobs(),
    storeSharedGlobs: (filters: IndexFilters | null) => storage.storeSharedGlobs(filters),
    async close() {
      try {
        await storage.close();
      } finally {
        await rm(file, { force: true });
      }
    },
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}
