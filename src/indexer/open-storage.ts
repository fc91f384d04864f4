import { rm } from 'node:fs/promises';
import path from 'node:path';
import { IndexCorruptError } from '../errors.js';
import { Catalog } from '../store/catalog.js';
import { quarantineCorruptDatabase } from '../store/catalog-open.js';
import { HNSW_FILE, HNSW_META_FILE } from '../store/hnsw-file.js';
import { acquireWriteLock } from '../store/write-lock.js';

/** Opens the catalog; a damaged one is moved aside (under the write lock) and a fresh one started. */
export async function openCatalogOrQuarantine(indexDir: string, o: { lockWaitMs: number; note: (message: string) => void }): Promise<Catalog> {
  try {
    return Catalog.open(indexDir);
  } catch (error) {
    if (!(error instanceof IndexCorruptError)) throw error;
    const lock = await acquireWriteLock(indexDir, { waitMs: Math.max(o.lockWaitMs, 10_000) });
    try {
      // Another process may have moved it aside while we waited for the lock.
      try {
        return Catalog.open(indexDir);
      } catch (again) {
        if (!(again instanceof IndexCorruptError)) throw again;
      }
      const moved = quarantineCorruptDatabase(indexDir);
      // The vector files are labelled with the damaged catalog's row ids; a fresh catalog reuses those ids.
      await removeVectorFiles(indexDir);
      const reason = error.cause instanceof Error ? error.cause.message : 'unreadable';
      o.note(`The index database was damaged (${reason}); moved it aside to ${moved} and started a fresh one, which codescout index rebuilds from the source files.`);
      return Catalog.open(indexDir);
    } finally {
      await lock.release();
    }
  }
}

/** Deletes the derived vector files (graph and meta); they are rebuilt from the catalog. */
export async function removeVectorFiles(indexDir: string): Promise<void> {
  await rm(path.join(indexDir, HNSW_FILE), { force: true });
  await rm(path.join(indexDir, HNSW_META_FILE), { force: true });
}
