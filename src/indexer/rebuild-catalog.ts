import { IndexCorruptError } from '../errors.js';
import type { Catalog } from '../store/catalog.js';
import { catalogPath, isCorruptionError } from '../store/catalog-open.js';
import { HnswStore } from '../store/hnsw-store.js';
import { rowsUnlikeGraph } from '../store/hnsw-vector-store.js';
import { removeVectorFiles, replaceDamagedCatalog } from './open-storage.js';

/**
 * Empties a catalog for `--rebuild` (the caller holds the write lock) and first repairs what `status --verify` can
 * report, so the rebuild starts from a sound catalog and ends verified:
 * - SQLite damage: REINDEX when it is confined to index b-trees (the embedding cache is kept); when that is not
 *   enough, or SQLITE_CORRUPT is met on the way, the catalog is moved aside and a fresh one started, as on open;
 * - cached vectors that are not finite unit vectors, or differ from the saved graph's copy (one of the two was
 *   damaged, and only embedding again tells which), are dropped, so the rebuild embeds those texts again.
 * Deletes the vector files. Returns the catalog to rebuild into: `catalog` itself, or a fresh one (then `catalog`
 * is closed).
 */
export async function prepareRebuild(o: { indexDir: string; catalog: Catalog; note: (message: string) => void }): Promise<Catalog> {
  let catalog = o.catalog;
  try {
    repairSqlite(catalog, o.note);
    dropSuspectVectors(catalog, o);
    catalog.clear();
    catalog.resetManifest();
  } catch (error) {
    if (!isCorruptionError(error) && !(error instanceof IndexCorruptError)) throw error;
    catalog.close();
    catalog = await replaceDamagedCatalog(o.indexDir, { error, note: o.note });
  }
  await removeVectorFiles(o.indexDir);
  return catalog;
}

/** Runs integrity_check; REINDEX repairs index-only damage. @throws IndexCorruptError when damage remains. */
function repairSqlite(catalog: Catalog, note: (message: string) => void): void {
  const problems = catalog.sqliteProblems();
  if (problems.length === 0) return;
  catalog.reindex();
  const left = catalog.sqliteProblems();
  if (left.length > 0) {
    const path = catalogPath(catalog.indexDir);
    throw new IndexCorruptError(`Catalog ${path} is damaged beyond REINDEX`, path, { cause: new Error(left.slice(0, 3).join('; ')) });
  }
  note(`The index database had damaged index entries (${problems[0]}); rebuilt them (REINDEX) and kept the embedding cache.`);
}

/** Drops cached vectors that are not sound, then those the saved graph holds differently. */
function dropSuspectVectors(catalog: Catalog, o: { indexDir: string; note: (message: string) => void }): void {
  const unsound = catalog.dropCachedVectorRows(catalog.unsoundVectorRows());
  const manifest = catalog.getManifest();
  let unlike = 0;
  if (manifest !== null) {
    const loaded = HnswStore.tryLoad({ indexDir: o.indexDir, dimension: manifest.dimension });
    // A graph from another catalog (newer than this one) is no evidence about this catalog's vectors.
    const graph = loaded.store !== null && loaded.store.generation <= catalog.generation() ? loaded.store : null;
    if (graph !== null) {
      const rowIds = catalog.liveRowIds().filter((id) => graph.has(id));
      const rows = rowsUnlikeGraph({ catalog, graph, revision: manifest.revision, rowIds });
      unlike = catalog.dropCachedVectors(catalog.getChunks(rows).map((c) => c.hash), manifest.revision);
    }
  }
  if (unsound + unlike > 0) {
    o.note(`Dropped ${unsound + unlike} cached vectors that were damaged (${unsound} not finite or not of unit length, ${unlike} unlike the saved vector index); they are embedded again.`);
  }
}
