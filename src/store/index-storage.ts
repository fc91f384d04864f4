import type { AsyncCatalog } from './catalog-port.js';
import type { VectorStore } from './vector-store.js';

/** A writer's hold on a store for one write; the store decides what it is (a lock file, a lock held since open). */
export interface WriteHold {
  /** Gives the hold back; safe to call twice. */
  release(): Promise<void>;
}

/**
 * One index's store as the layers above it see it: the catalog and the vectors behind their ports, the writer's
 * lock, and the repair of damage met during a write. `openIndex` picks the adapter (the embedded SQLite + HNSW store
 * today); nothing above the store knows which one it talks to.
 */
export interface IndexStorage {
  /** The catalog; may be replaced by {@link replaceDamaged}, so read it again after a write. */
  readonly catalog: AsyncCatalog;
  /** The vectors; replaced together with the catalog. */
  readonly vectors: VectorStore;
  /**
   * Takes the right to write for one write, waiting up to `waitMs` for another writer.
   * @throws IndexLockedError naming the holder when it is still held after `waitMs`.
   */
  holdForWrite(options: { readonly waitMs: number }): Promise<WriteHold>;
  /**
   * Called with an error a write met (the hold is taken). When it is damage this store repairs by starting afresh,
   * it moves the damaged data aside, opens an empty catalog marked reset, tells `note` what it did and returns true
   * (the caller then rebuilds with a full pass); otherwise returns false and the caller rethrows.
   */
  replaceDamaged(error: unknown, note: (message: string) => void): Promise<boolean>;
  /** Persists what this process wrote and releases connections and files; not usable afterwards. */
  close(): Promise<void>;
}
