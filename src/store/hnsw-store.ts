import hnswlib from 'hnswlib-node';
import { statSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { commitTempFile, tempPathFor, writeFileAtomic } from './atomic-write.js';
import { filesStamp, matchesCheckStamp, recordCheckStamp, VECTORS_CHECK_STAMP_FILE } from './check-stamp.js';
import {
  checkHnswHeader, hashFile, hashFileSync, hnswPaths, parseHnswMeta, readMetaText, type HnswMeta,
} from './hnsw-file.js';
import { createPrivateFileSync, makePrivateDirSync } from './private-files.js';
import type { VectorHit } from './vector-store.js';

type Index = InstanceType<typeof hnswlib.HierarchicalNSW>;

/** Tuning of the HNSW graph. */
export interface HnswTuning {
  /** Links per node (hnswlib M). */
  readonly m?: number;
  /** Candidate list size while inserting. */
  readonly efConstruction?: number;
  /** Candidate list size while searching; always raised to at least k. */
  readonly efSearch?: number;
  /** Elements allocated up front; the graph doubles when full. */
  readonly initialCapacity?: number;
  /** Deleted share of stored elements above which the graph should be rebuilt (0..1). */
  readonly compactionRatio?: number;
}

/** Defaults of HnswTuning. */
export const HNSW_DEFAULTS: Required<HnswTuning> = Object.freeze({
  m: 16, efConstruction: 200, efSearch: 64, initialCapacity: 1024, compactionRatio: 0.2,
});

/** Where an HnswStore lives and how it is tuned. */
export type HnswStoreOptions = { readonly indexDir: string; readonly dimension: number } & HnswTuning;

/**
 * The HNSW graph over hnswlib-node with cosine space. Labels are catalog chunk row ids; deletes are
 * soft (markDelete) until a rebuild compacts the graph. Similarity = 1 - hnswlib's cosine distance.
 */
export class HnswStore {
  readonly dimension: number;
  private readonly tuning: Required<HnswTuning>;
  private readonly labels: Set<number>;
  private readonly deleted: Set<number>;
  private version = 0;
  private savedVersion = 0;
  private saveChain: Promise<void> = Promise.resolve();
  private generationValue: number;
  private maxLabel = 0;

  private constructor(
    private readonly index: Index,
    private readonly options: HnswStoreOptions,
    state: { labels: Iterable<number>; deleted: Iterable<number>; generation: number },
  ) {
    this.dimension = options.dimension;
    this.tuning = { ...HNSW_DEFAULTS, ...stripUndefined(options) };
    this.labels = new Set(state.labels);
    this.deleted = new Set(state.deleted);
    this.generationValue = state.generation;
    for (const label of this.labels) this.maxLabel = Math.max(this.maxLabel, label);
  }

  /** A new, empty store (nothing is written until `save`). */
  static create(options: HnswStoreOptions): HnswStore {
    const tuning = { ...HNSW_DEFAULTS, ...stripUndefined(options) };
    const index = new hnswlib.HierarchicalNSW('cosine', options.dimension);
    index.initIndex({ maxElements: Math.max(1, tuning.initialCapacity), m: tuning.m, efConstruction: tuning.efConstruction });
    const store = new HnswStore(index, options, { labels: [], deleted: [], generation: 0 });
    store.version = 1; // a new graph is unsaved, even when empty
    return store;
  }

  /** Loads vectors.hnsw of `indexDir`, or returns null when it is missing, damaged or of another dimension. */
  static load(options: HnswStoreOptions): HnswStore | null {
    return HnswStore.tryLoad(options).store;
  }

  /** Like `load`, but says why nothing was loaded. Never throws for a missing or damaged file. */
  static tryLoad(options: HnswStoreOptions): { store: HnswStore; reason?: undefined } | { store: null; reason: string } {
    const paths = hnswPaths(options.indexDir);
    let metaText = readMetaText(paths.meta);
    for (let attempt = 0; ; attempt++) {
      const meta = metaText === null ? null : parseHnswMeta(metaText);
      if (meta === null) return { store: null, reason: `${paths.meta} is missing or invalid` };
      const result = HnswStore.loadWithMeta(options, meta);
      if (result.store !== null || attempt > 0) return result;
      // A writer may have replaced both files between our reads; one retry with the fresh meta settles it.
      const fresh = readMetaText(paths.meta);
      if (fresh === metaText) return result;
      metaText = fresh;
    }
  }

  private static loadWithMeta(options: HnswStoreOptions, meta: HnswMeta): { store: HnswStore } | { store: null; reason: string } {
    const { graph, meta: metaPath } = hnswPaths(options.indexDir);
    const fail = (reason: string) => ({ store: null, reason: `${graph}: ${reason}` }) as const;
    // The checksum (a full read of the graph) is skipped when both files are exactly as they were when it last matched.
    const stamp = filesStamp([graph, metaPath]);
    const trusted = matchesCheckStamp(options.indexDir, stamp, VECTORS_CHECK_STAMP_FILE);
    if (meta.dimension !== options.dimension) return fail(`is ${meta.dimension}d, expected ${options.dimension}d`);
    const bytes = statSync(graph, { throwIfNoEntry: false })?.size;
    if (bytes === undefined) return fail('is missing');
    if (bytes !== meta.bytes) return fail(`is ${bytes} bytes, meta says ${meta.bytes}`);
    try {
      if (!trusted && hashFileSync(graph) !== meta.sha256) return fail('checksum does not match its meta');
      const problem = checkHnswHeader(graph, { dimension: options.dimension, count: meta.count, bytes });
      if (problem !== null) return fail(problem);
      const index = new hnswlib.HierarchicalNSW('cosine', options.dimension);
      index.readIndexSync(graph);
      const labels = index.getIdsList();
      if (index.getCurrentCount() !== meta.count || labels.length !== meta.count) return fail('element count mismatch');
      const labelSet = new Set(labels);
      if (!meta.deletedRowIds.every((id) => labelSet.has(id))) return fail('meta lists deleted rows it does not hold');
      if (!trusted) recordCheckStamp(options.indexDir, stamp, VECTORS_CHECK_STAMP_FILE);
      return { store: new HnswStore(index, options, { labels, deleted: meta.deletedRowIds, generation: meta.generation }) };
    } catch (error) {
      // Reading a damaged file is an expected outcome here: the caller rebuilds from the catalog.
      return fail(`unreadable (${error instanceof Error ? error.message : String(error)})`);
    }
  }

  /** Number of live (not deleted) vectors. */
  get size(): number {
    return this.labels.size - this.deleted.size;
  }

  /** Highest label ever stored (0 when none). */
  get maxRowId(): number {
    return this.maxLabel;
  }

  /** Stored elements including deleted ones. */
  get storedCount(): number {
    return this.labels.size;
  }

  /** Elements marked deleted and not yet compacted away. */
  get deletedCount(): number {
    return this.deleted.size;
  }

  /** True when deleted elements exceed `compactionRatio` of those stored: rebuild from the catalog. */
  get needsCompaction(): boolean {
    return this.deleted.size > this.tuning.compactionRatio * this.labels.size;
  }

  /** True when there are changes not yet saved. */
  get isDirty(): boolean {
    return this.version !== this.savedVersion;
  }

  /** Catalog generation this graph reflects; recorded in vectors.json on save. */
  get generation(): number {
    return this.generationValue;
  }

  /** Bytes of vectors.hnsw plus vectors.json as last saved (0 for files not written yet). */
  bytesOnDisk(): number {
    const paths = hnswPaths(this.options.indexDir);
    return [paths.graph, paths.meta].reduce((sum, p) => sum + (statSync(p, { throwIfNoEntry: false })?.size ?? 0), 0);
  }

  /** Records which catalog generation the graph now reflects (call after applying that generation's changes). */
  setGeneration(generation: number): void {
    this.generationValue = generation;
  }

  /** True when `rowId` is stored and not deleted. */
  has(rowId: number): boolean {
    return this.labels.has(rowId) && !this.deleted.has(rowId);
  }

  /** The stored (unit-length) vector of a live row, or null when the row is absent or deleted. */
  vectorOf(rowId: number): Float32Array | null {
    return this.has(rowId) ? Float32Array.from(this.index.getPoint(rowId)) : null;
  }

  /** Live row ids, in no particular order. */
  rowIds(): number[] {
    return [...this.labels].filter((id) => !this.deleted.has(id));
  }

  /** Adds or replaces vectors; grows capacity by doubling. Throws RangeError for a vector of the wrong length. */
  upsert(items: readonly { rowId: number; vector: Float32Array }[]): void {
    if (items.length === 0) return;
    const fresh = new Set(items.filter((item) => !this.labels.has(item.rowId)).map((item) => item.rowId)).size;
    this.ensureCapacity(this.index.getCurrentCount() + fresh);
    for (const { rowId, vector } of items) {
      if (vector.length !== this.dimension) {
        throw new RangeError(`Vector for row ${rowId} has ${vector.length} dimensions, the store ${this.dimension}`);
      }
      // hnswlib updates an existing label in place and clears its delete mark.
      this.index.addPoint(Array.from(vector), rowId);
      this.labels.add(rowId);
      this.deleted.delete(rowId);
      this.maxLabel = Math.max(this.maxLabel, rowId);
    }
    this.version++;
  }

  /** Marks vectors deleted; returns how many were live. */
  remove(rowIds: readonly number[]): number {
    let removed = 0;
    for (const rowId of new Set(rowIds)) {
      if (!this.has(rowId)) continue;
      this.index.markDelete(rowId);
      this.deleted.add(rowId);
      removed++;
    }
    if (removed > 0) this.version++;
    return removed;
  }

  /**
   * The min(k, size) nearest live vectors by cosine similarity, best first; `accept` filters row ids
   * during the graph search. Rethrows whatever `accept` throws.
   */
  query(vector: Float32Array, options: { k: number; accept?: (rowId: number) => boolean }): VectorHit[] {
    const k = Math.min(Math.floor(options.k), this.size);
    if (k <= 0) return [];
    const point = Array.from(vector);
    let failure: { error: unknown } | undefined;
    const accept = options.accept;
    const filter = accept && ((label: number): boolean => {
      if (failure !== undefined) return false;
      try {
        return accept(label);
      } catch (error) {
        failure = { error }; // an exception must not cross the native boundary; rethrown below
        return false;
      }
    });
    // ef < k is the classic "fewer than k results" trap. hnswlib (0.8, bundled) keeps walking through
    // deleted and filtered-out nodes until it has ef accepted candidates, so heavy deletion is fine too.
    this.index.setEf(Math.max(this.tuning.efSearch, k));
    const result = filter === undefined ? this.index.searchKnn(point, k) : this.index.searchKnn(point, k, filter);
    if (failure !== undefined) throw failure.error;
    return result.neighbors.map((rowId, i) => ({ rowId, similarity: 1 - (result.distances[i] ?? 1) }));
  }

  /** Writes vectors.hnsw (temp file, fsync, rename) and then vectors.json atomically; no-op when clean. */
  save(): Promise<void> {
    // Saves run one after another; a failed save already rejected for its caller, so the chain goes on.
    const run = this.saveChain.catch(() => undefined).then(() => this.writeFiles());
    this.saveChain = run;
    return run;
  }

  private async writeFiles(): Promise<void> {
    if (!this.isDirty) return;
    const version = this.version;
    const paths = hnswPaths(this.options.indexDir);
    makePrivateDirSync(this.options.indexDir);
    const tmp = tempPathFor(paths.graph);
    try {
      await this.writeGraph(tmp, paths, version);
    } catch (error) {
      await unlink(tmp).catch(() => undefined); // best effort: the write error is what the caller needs
      throw error;
    }
  }

  private async writeGraph(tmp: string, paths: { graph: string; meta: string }, version: number): Promise<void> {
    createPrivateFileSync(tmp); // hnswlib truncates it and keeps its 0600
    this.index.writeIndexSync(tmp);
    // Captured in the same tick as the graph so the meta describes exactly what was written.
    const snapshot = {
      count: this.labels.size, deletedRowIds: [...this.deleted], generation: this.generationValue,
      maxRowId: this.maxLabel,
    };
    const { sha256, bytes } = await hashFile(tmp);
    await commitTempFile(tmp, paths.graph);
    const meta: HnswMeta = {
      formatVersion: 1, dimension: this.dimension, generation: snapshot.generation, maxRowId: snapshot.maxRowId,
      count: snapshot.count, deleted: snapshot.deletedRowIds.length, deletedRowIds: snapshot.deletedRowIds,
      bytes, sha256, savedAt: new Date().toISOString(),
    };
    await writeFileAtomic(paths.meta, JSON.stringify(meta));
    this.savedVersion = version;
  }

  private ensureCapacity(needed: number): void {
    const capacity = this.index.getMaxElements();
    if (needed <= capacity) return;
    let next = Math.max(capacity, 1);
    while (next < needed) next *= 2;
    this.index.resizeIndex(next);
  }
}

const TUNING_KEYS = Object.keys(HNSW_DEFAULTS) as Array<keyof HnswTuning>;

function stripUndefined(options: HnswTuning): HnswTuning {
  return Object.fromEntries(TUNING_KEYS.filter((key) => options[key] !== undefined).map((key) => [key, options[key]]));
}
