import type { ModelSpec } from '../embed/models.js';
import { IndexMismatchError } from '../errors.js';
import type { Catalog } from '../store/catalog.js';
import { isCorruptionError } from '../store/catalog-open.js';
import { HnswStore } from '../store/hnsw-store.js';
import { HnswVectorStore } from '../store/hnsw-vector-store.js';
import type { IndexStorage, WriteHold } from '../store/index-storage.js';
import { openVectorStore } from '../store/open-vector-store.js';
import { SqliteAsyncCatalog } from '../store/sqlite-async-catalog.js';
import { removeStaleTempFiles } from '../store/stale-temp-files.js';
import { acquireWriteLock } from '../store/write-lock.js';
import { readonlyLocationError } from './index-location.js';
import { openCatalogOrQuarantine, replaceDamagedCatalog } from './open-storage.js';
import { prepareRebuild } from './rebuild-catalog.js';

/** Options of {@link openSqliteStorage}. */
export interface OpenSqliteStorageOptions {
  readonly indexDir: string;
  /** The root being indexed, for the hint of a model mismatch. */
  readonly root: string;
  /** The configured model: an index built by another model or dimension is refused unless `rebuild`. */
  readonly model: ModelSpec;
  /** Model revision of the vectors until the catalog records one. */
  readonly revision: string;
  readonly lockWaitMs: number;
  /** The index location cannot be written: open for reading, repair nothing. */
  readonly readonly: boolean;
  /** Empty the catalog (repairing what verification reports first) and start again. */
  readonly rebuild: boolean;
  /** Told about every repair, in one sentence. */
  readonly note: (message: string) => void;
}

/**
 * Opens the embedded store of one index folder: the SQLite catalog (a damaged one moved aside, see
 * openCatalogOrQuarantine), emptied first for `rebuild`, and the HNSW graph loaded and reconciled with it or rebuilt
 * from its cached vectors.
 * @throws IndexMismatchError for an index of another model (without `rebuild`), ConfigError for a rebuild of a
 * read-only location, IndexLockedError when the lock a repair needs stays held, IndexCorruptError.
 */
export async function openSqliteStorage(o: OpenSqliteStorageOptions): Promise<SqliteStorage> {
  let catalog = await openCatalogOrQuarantine(o.indexDir, { lockWaitMs: o.lockWaitMs, note: o.note, readonly: o.readonly });
  try {
    const manifest = catalog.getManifest();
    if (manifest && !o.rebuild && (manifest.model !== o.model.id || manifest.dimension !== o.model.dimension)) {
      throw new IndexMismatchError(
        `${o.indexDir} was built with ${manifest.model} (${manifest.dimension}d); the embedder is ${o.model.id} ` +
          `(${o.model.dimension}d). Run: codescout index ${o.root} --rebuild (or pass --model ${manifest.model}).`,
        o.indexDir,
      );
    }
    if (o.rebuild) {
      if (o.readonly) throw readonlyLocationError(o.indexDir, 'rebuild the index');
      // Under the write lock: a writer in another process must never see its rows vanish mid-pass.
      const lock = await acquireWriteLock(o.indexDir, { waitMs: o.lockWaitMs });
      try {
        catalog = await prepareRebuild({ indexDir: o.indexDir, catalog, note: o.note });
      } finally {
        await lock.release();
      }
    }
    const revision = catalog.getManifest()?.revision ?? o.revision;
    const opened = openVectorStore({ indexDir: o.indexDir, catalog, revision, dimension: o.model.dimension });
    if (opened.rebuilt && opened.isRepair === true && catalog.liveRowIds().length > 0) {
      o.note(`The vector index could not be used (${opened.rebuildReason}); rebuilt it from the catalog's cached vectors, nothing re-embedded.`);
    }
    return new SqliteStorage({ ...o, revision }, catalog, opened.store);
  } catch (error) {
    catalog.close();
    throw error;
  }
}

/**
 * The embedded store behind the {@link IndexStorage} port: the SQLite catalog (the truth) and the HNSW graph derived
 * from it, one writer at a time through the lock file of the index folder, and damage met during a write repaired by
 * moving the catalog aside and starting a fresh one.
 */
export class SqliteStorage implements IndexStorage {
  private sqlite: SqliteAsyncCatalog;
  private hnsw: HnswVectorStore;

  constructor(private readonly o: OpenSqliteStorageOptions, catalog: Catalog, graph: HnswStore) {
    this.sqlite = new SqliteAsyncCatalog(catalog);
    this.hnsw = this.vectorsOver(catalog, graph);
  }

  get catalog(): SqliteAsyncCatalog {
    return this.sqlite;
  }

  get vectors(): HnswVectorStore {
    return this.hnsw;
  }

  /** Takes the lock file of the index folder, then clears temp files a writer killed mid-save left (only the holder may). */
  async holdForWrite(options: { readonly waitMs: number }): Promise<WriteHold> {
    const lock = await acquireWriteLock(this.o.indexDir, { waitMs: options.waitMs });
    try {
      await removeStaleTempFiles(this.o.indexDir);
    } catch (error) {
      await lock.release();
      throw error;
    }
    return lock;
  }

  /**
   * SQLITE_CORRUPT met during a write means the catalog is damaged where the open-time check does not look: it is
   * moved aside as on open, and the caller's full pass rebuilds into a fresh catalog and empty vectors.
   */
  async replaceDamaged(error: unknown, note: (message: string) => void): Promise<boolean> {
    if (!isCorruptionError(error)) return false;
    this.hnsw.discard();
    this.sqlite.sqlite.close();
    const fresh = await replaceDamagedCatalog(this.o.indexDir, { error, note });
    const graph = HnswStore.create({ indexDir: this.o.indexDir, dimension: this.o.model.dimension });
    graph.setGeneration(fresh.generation());
    this.sqlite = new SqliteAsyncCatalog(fresh);
    this.hnsw = this.vectorsOver(fresh, graph);
    return true;
  }

  /** Its globs live beside it, in filters.json. */
  async sharedGlobs(): Promise<undefined> {
    return undefined;
  }

  async storeSharedGlobs(): Promise<void> {
    // filters.json in the index folder holds them (CodeIndex.storeFilters).
  }

  async close(): Promise<void> {
    try {
      await this.hnsw.close();
    } finally {
      this.sqlite.sqlite.close();
    }
  }

  private vectorsOver(catalog: Catalog, graph: HnswStore): HnswVectorStore {
    return new HnswVectorStore({
      graph, catalog, indexDir: this.o.indexDir, revision: this.o.revision, lockWaitMs: this.o.lockWaitMs, readonly: this.o.readonly,
    });
  }
}
