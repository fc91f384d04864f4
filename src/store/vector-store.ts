/** A nearest-neighbour hit from the vector store: a chunk row id and its cosine similarity. */
export interface VectorHit {
  readonly rowId: number;
  /** Cosine similarity in [-1, 1] (vectors are normalised). */
  readonly similarity: number;
}

/**
 * The derived, rebuildable vector index. Keys are the catalog's integer chunk row ids.
 * The SQLite catalog is the source of truth; a VectorStore can always be rebuilt from it.
 */
export interface VectorStore {
  readonly dimension: number;
  /** Number of live (not deleted) vectors. */
  readonly size: number;
  /** Adds or replaces vectors. */
  upsert(items: readonly { rowId: number; vector: Float32Array }[]): void;
  /** Marks vectors deleted; returns how many were live. */
  remove(rowIds: readonly number[]): number;
  /** k nearest live vectors, optionally only those `accept`ed (path filters). */
  query(vector: Float32Array, options: { k: number; accept?: (rowId: number) => boolean }): VectorHit[];
  /** True when there are unsaved changes. */
  readonly isDirty: boolean;
  /** Writes the index atomically (temp file + rename). */
  save(): Promise<void>;
}
