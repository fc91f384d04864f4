import type { Catalog } from './catalog.js';
import { HNSW_FILE } from './hnsw-file.js';
import { HnswStore, HNSW_DEFAULTS, type HnswTuning } from './hnsw-store.js';

/** Vectors handed to the graph per upsert call while rebuilding. */
const REBUILD_BATCH = 1000;

/** Where the vector store lives and which catalog it mirrors. */
export interface OpenVectorStoreOptions {
  readonly indexDir: string;
  readonly catalog: Catalog;
  /** Model revision whose cached vectors are used. */
  readonly revision: string;
  readonly dimension: number;
  readonly tuning?: HnswTuning;
}

/** The opened store and what it took to bring it in line with the catalog. */
export interface OpenedVectorStore {
  readonly store: HnswStore;
  /** True when the graph was rebuilt from the catalog's cached vectors (no embedding). */
  readonly rebuilt: boolean;
  /** Why it was rebuilt (missing, damaged, needed compaction), when it was. */
  readonly rebuildReason?: string;
  /** True when rebuilt because the saved graph was missing or unusable, not merely to compact it. */
  readonly isRepair?: boolean;
  /** Rows added to / removed from a loaded graph to match the catalog (after a rebuild: added = size). */
  readonly reconciled: { readonly added: number; readonly removed: number };
  /** Live catalog chunks without a cached vector, so absent from the graph (should be 0). */
  readonly missingVectors: number;
}

/**
 * Loads vectors.hnsw and reconciles it with the catalog (drops rows no longer live, adds live rows it
 * lacks), or rebuilds it from the catalog's cached vectors when it is missing, damaged or needs
 * compaction. Never embeds and never saves: the caller saves (under the write lock) when `store.isDirty`.
 * Throws IndexCorruptError when a cached vector in the catalog is damaged.
 */
export function openVectorStore(options: OpenVectorStoreOptions): OpenedVectorStore {
  const storeOptions = { indexDir: options.indexDir, dimension: options.dimension, ...options.tuning };
  const loaded = HnswStore.tryLoad(storeOptions);
  let reason = loaded.reason;
  let compacting = false;
  if (loaded.store !== null && !belongsToCatalog(loaded.store, options.catalog)) {
    reason = `${HNSW_FILE} is newer than the catalog (generation ${loaded.store.generation} > ${options.catalog.generation()} ` +
      `or row ${loaded.store.maxRowId} > ${options.catalog.maxRowId()}), so it was built for another catalog`;
  } else if (loaded.store !== null) {
    const store = loaded.store;
    if (!store.needsCompaction) {
      const result = reconcileVectorStore(store, options);
      if (!store.needsCompaction) return { store, rebuilt: false, ...result };
    }
    reason = `${store.deletedCount} of ${store.storedCount} vectors are deleted; compacting`;
    compacting = true;
  }
  const store = rebuildVectorStore(options);
  const live = options.catalog.liveRowIds().length;
  return {
    store, rebuilt: true, rebuildReason: reason, isRepair: !compacting, reconciled: { added: store.size, removed: 0 },
    missingVectors: live - store.size,
  };
}

/**
 * False when a graph claims a generation or a row id the catalog never reached: it was saved for another
 * catalog (e.g. one since replaced), and its labels would name the wrong chunks of this one.
 */
function belongsToCatalog(store: HnswStore, catalog: Catalog): boolean {
  return store.generation <= catalog.generation() && store.maxRowId <= catalog.maxRowId();
}

/**
 * Builds a new graph from every live chunk's cached vector in the catalog; nothing is embedded.
 * The result is unsaved. Throws IndexCorruptError when a cached vector is damaged.
 */
export function rebuildVectorStore(options: OpenVectorStoreOptions): HnswStore {
  const live = options.catalog.liveRowIds().length;
  const initialCapacity = Math.max(options.tuning?.initialCapacity ?? HNSW_DEFAULTS.initialCapacity, Math.ceil(live * 1.25));
  const store = HnswStore.create({
    indexDir: options.indexDir, dimension: options.dimension, ...options.tuning, initialCapacity,
  });
  let batch: Array<{ rowId: number; vector: Float32Array }> = [];
  for (const item of options.catalog.allVectors(options.revision)) {
    batch.push(item);
    if (batch.length >= REBUILD_BATCH) {
      store.upsert(batch);
      batch = [];
    }
  }
  store.upsert(batch);
  store.setGeneration(options.catalog.generation());
  return store;
}

/**
 * Brings a loaded graph in line with the catalog: marks deleted the rows no longer live, adds the live
 * rows it lacks from the cached vectors, and records the catalog generation. Unsaved afterwards.
 * Throws IndexCorruptError when a cached vector is damaged.
 */
export function reconcileVectorStore(
  store: HnswStore,
  options: OpenVectorStoreOptions,
): { reconciled: { added: number; removed: number }; missingVectors: number } {
  // Read first: a commit by another process during the reconcile must stay "unseen" and be reconciled later.
  const generation = options.catalog.generation();
  const live = options.catalog.liveRowIds();
  const liveSet = new Set(live);
  const removed = store.remove(store.rowIds().filter((id) => !liveSet.has(id)));
  const absent = live.filter((id) => !store.has(id));
  const vectors = options.catalog.vectorsForRows(absent, options.revision);
  store.upsert(vectors);
  store.setGeneration(generation);
  return { reconciled: { added: vectors.length, removed }, missingVectors: absent.length - vectors.length };
}
