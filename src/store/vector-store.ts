/** A nearest-neighbour hit from the vector store: a chunk row id and its cosine similarity. */
export interface VectorHit {
  readonly rowId: number;
  /** Cosine similarity in [-1, 1] (vectors are normalised). */
  readonly similarity: number;
}

/**
 * The nearest-neighbour side of an index, keyed by the catalog's chunk row ids. Every layer above the store searches
 * and updates vectors through this port only. The catalog is the source of truth: a store that derives its own copy
 * (the HNSW graph beside the SQLite catalog) follows the catalog here; one that searches the catalog's own vectors
 * (pgvector) has nothing to follow, keep or save, and answers those calls at once.
 */
export interface VectorStore {
  /** Live vectors a query can reach. */
  count(): Promise<number>;
  /** k nearest live vectors by cosine similarity, best first. */
  query(vector: Float32Array, options: { readonly k: number }): Promise<VectorHit[]>;
  /** Adds or replaces the vectors of chunk rows the catalog has just committed (the writer calls it). */
  upsert(items: readonly { rowId: number; vector: Float32Array }[]): Promise<void>;
  /** Drops the vectors of chunk rows the catalog has just removed; returns how many were live. */
  remove(rowIds: readonly number[]): Promise<number>;
  /** Catches up with catalog commits this store has not seen yet (another process's writes); before a search. */
  catchUp(): Promise<void>;
  /** Ends a write (the writer still holds the lock): the vectors now reflect the catalog as it is; persist them soon. */
  written(): Promise<void>;
  /**
   * Mid-write (the writer holds the lock, the vectors reflect every commit so far): persists them when the last save
   * is long enough ago, so other processes' searches during a long build load them instead of rebuilding them.
   */
  checkpoint(): Promise<void>;
  /** Where the vectors and the catalog's chunks disagree, one line per problem (empty = consistent). */
  verify(): Promise<string[]>;
  /** Bytes the vectors take beside the catalog (0 when they live inside it). */
  bytesOnDisk(): number;
  /** Persists pending changes now (a writer's), waiting for the write lock when it needs one. */
  flush(): Promise<void>;
  /** Persists what this process wrote and stops background work; not usable afterwards. */
  close(): Promise<void>;
}
