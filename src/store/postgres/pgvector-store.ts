import type { VectorHit, VectorStore } from '../vector-store.js';
import type { PostgresCatalog } from './postgres-catalog.js';

/**
 * The {@link VectorStore} of the PostgreSQL store: nearest chunks through pgvector's HNSW index over the catalog's own
 * cached vectors (PostgresCatalog.nearestChunks). The catalog writes a chunk's vector with the chunk, so there is
 * nothing to add, drop, follow, verify apart from the catalog, or save here: those calls answer at once.
 */
export class PgvectorStore implements VectorStore {
  constructor(private readonly catalog: PostgresCatalog) {}

  /** Chunks of the namespace that have their vector (those still queued for the embedder have none yet). */
  async count(): Promise<number> {
    const [chunks, waiting] = await Promise.all([this.catalog.chunkCount(), this.catalog.pendingChunkCount()]);
    return Math.max(0, chunks - waiting);
  }

  async query(vector: Float32Array, options: { readonly k: number }): Promise<VectorHit[]> {
    return this.catalog.nearestChunks(vector, { k: options.k });
  }

  async upsert(): Promise<void> {
    // The vectors were written by the catalog's own transaction (replaceFile, storePendingVectors).
  }

  /** The catalog has removed the rows and with them their vectors' use: every one was live until then. */
  async remove(rowIds: readonly number[]): Promise<number> {
    return new Set(rowIds).size;
  }

  async catchUp(): Promise<void> {
    // Every search reads the database as committed: there is no copy to bring up to date.
  }

  async written(): Promise<void> {
    // Committed with the catalog; nothing to persist.
  }

  async checkpoint(): Promise<void> {
    // Committed with the catalog; nothing to persist.
  }

  /** The vectors are the catalog's: its integrity check (checkNamespace) covers them. */
  async verify(): Promise<string[]> {
    return [];
  }

  /** Counted in the database size the catalog reports. */
  bytesOnDisk(): number {
    return 0;
  }

  async flush(): Promise<void> {
    // Nothing is held back from the database.
  }

  async close(): Promise<void> {
    // The catalog owns the connections.
  }
}
