import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, IndexCorruptError } from '../errors.js';
import { Catalog } from '../store/catalog.js';
import { catalogPath, quarantineCorruptDatabase } from '../store/catalog-open.js';
import { HNSW_FILE, HNSW_META_FILE, parseHnswMeta, readMetaText } from '../store/hnsw-file.js';
import { acquireWriteLock } from '../store/write-lock.js';

/** Options of {@link openCatalogOrQuarantine}. */
export interface OpenCatalogOptions {
  readonly lockWaitMs: number;
  /** Told about every repair, in one sentence. */
  readonly note: (message: string) => void;
  /** The index location cannot be written: open for reading only, repair nothing. */
  readonly readonly?: boolean;
}

/**
 * Opens the catalog. A damaged one is moved aside (under the write lock) and a fresh one started; a catalog that is
 * missing or empty beside a vector index of another catalog was lost, and the fresh one says so too. Either way
 * the fresh catalog is marked reset (see Catalog.resetReason) until a full pass rebuilds it.
 * @throws IndexCorruptError for a damaged catalog in a read-only location, ConfigError for a missing one there.
 */
export async function openCatalogOrQuarantine(indexDir: string, o: OpenCatalogOptions): Promise<Catalog> {
  if (o.readonly) return openReadonly(indexDir);
  let catalog: Catalog;
  try {
    catalog = Catalog.open(indexDir);
  } catch (error) {
    if (!(error instanceof IndexCorruptError)) throw error;
    return withLock(indexDir, o.lockWaitMs, async () => {
      // Another process may have moved it aside while we waited for the lock.
      try {
        return Catalog.open(indexDir);
      } catch (again) {
        if (!(again instanceof IndexCorruptError)) throw again;
      }
      return replaceDamagedCatalog(indexDir, { error, note: o.note });
    });
  }
  if (lostCatalogVectors(indexDir, catalog) === 0) return catalog;
  try {
    await withLock(indexDir, o.lockWaitMs, async () => {
      const vectors = lostCatalogVectors(indexDir, catalog);
      if (vectors === 0) return; // another process dealt with it while we waited
      await removeVectorFiles(indexDir);
      const reason = `${catalogPath(indexDir)} was missing or empty beside a vector index of ${vectors} vectors`;
      catalog.markReset(`${reason} (${new Date().toISOString()})`);
      o.note(`${reason}: the index lost its content; started a fresh one, which codescout index rebuilds from the source files.`);
    });
    return catalog;
  } catch (error) {
    catalog.close();
    throw error;
  }
}

/**
 * Moves a damaged catalog aside, drops the vector files labelled with its row ids, and opens a fresh catalog marked
 * reset. The caller holds the write lock and has closed (or never opened) the damaged catalog.
 */
export async function replaceDamagedCatalog(indexDir: string, o: { error: unknown; note: (message: string) => void }): Promise<Catalog> {
  const moved = quarantineCorruptDatabase(indexDir);
  // The vector files are labelled with the damaged catalog's row ids; a fresh catalog reuses those ids.
  await removeVectorFiles(indexDir);
  const cause = o.error instanceof IndexCorruptError ? o.error.cause : o.error;
  const reason = cause instanceof Error ? cause.message : 'unreadable';
  const fresh = Catalog.open(indexDir);
  fresh.markReset(`the index database was damaged (${reason}) and moved aside to ${moved} (${new Date().toISOString()})`);
  o.note(`The index database was damaged (${reason}); moved it aside to ${moved} and started a fresh one, which codescout index rebuilds from the source files.`);
  return fresh;
}

/** Deletes the derived vector files (graph and meta); they are rebuilt from the catalog. */
export async function removeVectorFiles(indexDir: string): Promise<void> {
  await rm(path.join(indexDir, HNSW_FILE), { force: true });
  await rm(path.join(indexDir, HNSW_META_FILE), { force: true });
}

/**
 * Live vectors of a saved graph that an empty catalog never had: the graph claims a later generation than the
 * catalog, so it was saved for a catalog since lost. 0 when the catalog has chunks or the graph is its own.
 * (A writer commits to the catalog before it saves the graph, so a sound index never looks like this.)
 */
function lostCatalogVectors(indexDir: string, catalog: Catalog): number {
  if (catalog.chunkCount() > 0) return 0;
  const text = readMetaText(path.join(indexDir, HNSW_META_FILE));
  const meta = text === null ? null : parseHnswMeta(text);
  if (meta === null || meta.generation <= catalog.generation()) return 0;
  return meta.count - meta.deleted;
}

/** Opens the catalog of a read-only location for reading; damage there can only be reported. */
function openReadonly(indexDir: string): Catalog {
  const where = 'Build or repair it in a writable location: codescout index --cache-dir <writable folder>';
  if (!existsSync(catalogPath(indexDir))) {
    throw new ConfigError(`No index at ${indexDir}, and that location is read-only. ${where}.`, 'cacheDir');
  }
  try {
    return Catalog.open(indexDir, { readonly: true });
  } catch (error) {
    if (!(error instanceof IndexCorruptError)) throw error;
    const reason = error.cause instanceof Error ? error.cause.message : 'unreadable';
    throw new IndexCorruptError(`Catalog ${error.path} is damaged (${reason}) and its location is read-only. ${where}.`, error.path, { cause: error });
  }
}

async function withLock<T>(indexDir: string, lockWaitMs: number, fn: () => Promise<T>): Promise<T> {
  const lock = await acquireWriteLock(indexDir, { waitMs: Math.max(lockWaitMs, 10_000) });
  try {
    return await fn();
  } finally {
    await lock.release();
  }
}
