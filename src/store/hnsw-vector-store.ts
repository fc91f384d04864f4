import { DEFAULTS } from '../config.js';
import { IndexLockedError } from '../errors.js';
import type { Catalog } from './catalog.js';
import { createDebouncedSaver, type DebouncedSaver } from './debounced-saver.js';
import type { HnswStore } from './hnsw-store.js';
import { reconcileVectorStore } from './open-vector-store.js';
import type { VectorHit, VectorStore } from './vector-store.js';
import { acquireWriteLock } from './write-lock.js';

/** Where an {@link HnswVectorStore} lives and what it follows. */
export interface HnswVectorStoreOptions {
  /** The graph, loaded or rebuilt and reconciled with `catalog` (see openVectorStore). */
  readonly graph: HnswStore;
  /** The SQLite catalog the graph is derived from. */
  readonly catalog: Catalog;
  readonly indexDir: string;
  /** Model revision of the cached vectors, until the catalog records one. */
  readonly revision: string;
  /** Longest wait for the write lock before a save, in ms. */
  readonly lockWaitMs: number;
  /** The index location cannot be written: nothing is ever saved. */
  readonly readonly: boolean;
  /** Shortest time between two saves of a build in progress (ms; default DEFAULTS.hnswCheckpointMs), see checkpoint(). */
  readonly checkpointMs?: number;
}

/**
 * A build's saves take at most about this share of its time: the pause between two is at least this many times the
 * last save's duration (a graph of 100k vectors takes about a second to write).
 */
const CHECKPOINT_PAUSE_PER_SAVE = 30;

/**
 * The {@link VectorStore} of the embedded store: an HNSW graph (vectors.hnsw) derived from the SQLite catalog. It
 * follows the catalog by its generation (a commit by another process is reconciled before the next search) and is
 * saved in the background under the index's write lock, since the catalog holds the truth and the graph is rebuilt
 * from it whenever it is lost.
 */
export class HnswVectorStore implements VectorStore {
  private seenGeneration: number;
  private wrote = false;
  private readonly saver: DebouncedSaver;
  private lastSaveAt = performance.now();
  private lastSaveMs = 0;

  constructor(private readonly o: HnswVectorStoreOptions) {
    // The generation the graph reflects, not the catalog's now: a commit since the open must still be reconciled.
    this.seenGeneration = o.graph.generation;
    this.saver = createSaver(o.graph, o.indexDir);
  }

  /** The graph itself, for SQLite-side verification and tests. */
  get graph(): HnswStore {
    return this.o.graph;
  }

  async count(): Promise<number> {
    return this.o.graph.size;
  }

  async query(vector: Float32Array, options: { readonly k: number }): Promise<VectorHit[]> {
    return this.o.graph.query(vector, { k: options.k });
  }

  async upsert(items: readonly { rowId: number; vector: Float32Array }[]): Promise<void> {
    this.o.graph.upsert(items);
  }

  async remove(rowIds: readonly number[]): Promise<number> {
    return this.o.graph.remove(rowIds);
  }

  /** Reconciles the graph when another process changed the catalog since it last looked. */
  async catchUp(): Promise<void> {
    const { graph, catalog, indexDir } = this.o;
    const generation = catalog.generation();
    if (generation === this.seenGeneration) return;
    reconcileVectorStore(graph, { indexDir, catalog, revision: this.revision(), dimension: graph.dimension });
    // Read before reconciling, so a commit racing the reconcile is never claimed as seen (it is picked up next time).
    graph.setGeneration(generation);
    this.seenGeneration = generation;
  }

  async written(): Promise<void> {
    this.reflectsCatalog();
    this.saver.schedule();
  }

  /**
   * Saves the graph of a build in progress once `checkpointMs` (and 30 times the last save's duration) have passed
   * since the last save. Until then another process's search rebuilds the whole graph from the cached vectors each
   * time it opens the index; after it, it loads the saved graph and adds only the vectors embedded since.
   */
  async checkpoint(): Promise<void> {
    const { graph, readonly } = this.o;
    if (readonly || !graph.isDirty) return;
    const pause = Math.max(this.o.checkpointMs ?? DEFAULTS.hnswCheckpointMs, this.lastSaveMs * CHECKPOINT_PAUSE_PER_SAVE);
    if (performance.now() - this.lastSaveAt < pause) return;
    this.reflectsCatalog();
    const started = performance.now();
    await graph.save();
    this.lastSaveAt = performance.now();
    this.lastSaveMs = this.lastSaveAt - started;
  }

  /**
   * The graph's generation not ahead of the catalog's, labels equal to the live chunk rows (rows still waiting for
   * their vectors excepted), and every stored vector equal to its chunk's cached one.
   */
  async verify(): Promise<string[]> {
    await this.catchUp();
    const { graph, catalog } = this.o;
    const problems: string[] = [];
    if (graph.generation > catalog.generation()) {
      problems.push(`vectors: reflect generation ${graph.generation}, newer than the catalog's ${catalog.generation()}`);
    }
    const live = catalog.liveRowIds();
    const labels = new Set(graph.rowIds());
    // Chunks queued for the embedder have no vector yet by design (a build in progress or interrupted): not damage.
    const waiting = new Set(catalog.waitingRowIds());
    const missing = live.filter((id) => !labels.has(id) && !waiting.has(id));
    const liveSet = new Set(live);
    const extra = [...labels].filter((id) => !liveSet.has(id));
    if (missing.length > 0) problems.push(`vectors: ${missing.length} chunks have no vector in the HNSW index`);
    if (extra.length > 0) problems.push(`vectors: ${extra.length} HNSW labels have no chunk`);
    const differing = rowsUnlikeGraph({ catalog, graph, revision: this.revision(), rowIds: live.filter((id) => labels.has(id)) }).length;
    if (differing > 0) problems.push(`vectors: ${differing} HNSW vectors differ from their chunk's cached embedding`);
    return problems;
  }

  bytesOnDisk(): number {
    return this.o.graph.bytesOnDisk();
  }

  async flush(): Promise<void> {
    if (this.o.graph.isDirty && !this.o.readonly) await this.withLock(() => this.saver.flush());
  }

  async close(): Promise<void> {
    if (this.o.graph.isDirty && this.wrote && !this.o.readonly) await this.withLock(() => this.saver.flush());
    this.saver.cancel();
  }

  /** Drops a pending background save without saving (the graph is being thrown away). */
  discard(): void {
    this.saver.cancel();
  }

  /**
   * Records that the graph reflects the catalog as it is now: the caller holds the write lock, so nobody else commits.
   * A save (even a background one after the lock is gone) records this generation, never a later writer's.
   */
  private reflectsCatalog(): void {
    this.wrote = true;
    this.seenGeneration = this.o.catalog.generation();
    this.o.graph.setGeneration(this.seenGeneration);
  }

  private revision(): string {
    return this.o.catalog.getManifest()?.revision ?? this.o.revision;
  }

  private async withLock<T>(fn: () => Promise<T>): Promise<T> {
    const lock = await acquireWriteLock(this.o.indexDir, { waitMs: Math.max(this.o.lockWaitMs, 10_000) });
    try {
      return await fn();
    } finally {
      await lock.release();
    }
  }
}

/**
 * Chunk rows whose vector in the graph is missing or not (up to float rounding) the catalog's cached vector, which
 * hnswlib normalised. Rows without a cached vector are left out.
 */
export function rowsUnlikeGraph(o: { catalog: Catalog; graph: HnswStore; revision: string; rowIds: readonly number[] }): number[] {
  const batch = 1000;
  const differing: number[] = [];
  for (let i = 0; i < o.rowIds.length; i += batch) {
    for (const { rowId, vector } of o.catalog.vectorsForRows(o.rowIds.slice(i, i + batch), o.revision)) {
      const stored = o.graph.vectorOf(rowId);
      if (stored === null || stored.length !== vector.length || !(cosineOf(stored, vector) >= 0.999)) differing.push(rowId);
    }
  }
  return differing;
}

function cosineOf(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? (na === nb ? 1 : 0) : dot / Math.sqrt(na * nb);
}

/**
 * The debounced background saver of a graph. A background save writes index files, so it takes the write lock like
 * any writer, without waiting: while another writer (or this process's own write) holds it, the save is tried again
 * a delay later.
 */
function createSaver(graph: HnswStore, indexDir: string): DebouncedSaver {
  const saver: DebouncedSaver = createDebouncedSaver(graph, {
    delayMs: DEFAULTS.hnswSaveDelayMs,
    onError: () => undefined, // flush() retries and reports; a failed background save loses nothing (SQLite holds the truth).
    backgroundSave: async (save) => {
      const lock = await acquireWriteLock(indexDir, { waitMs: 0 }).catch((error: unknown) => {
        if (error instanceof IndexLockedError) return null;
        throw error;
      });
      if (lock === null) {
        saver.schedule();
        return;
      }
      try {
        await save();
      } finally {
        await lock.release();
      }
    },
  });
  return saver;
}
