import type { IndexFilters } from '../stored-filters.js';
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
  /**
   * The globs the writer of a shared store indexed it with (null: none), for openers on other machines that give
   * none; undefined for a store whose globs are kept beside it on this machine (filters.json in the index folder).
   */
  sharedGlobs(): Promise<IndexFilters | null | undefined>;
  /** Records the writer's globs with a shared store; a no-op for a store whose globs live in filters.json. */
  storeSharedGlobs(filters: IndexFilters | null): Promise<void>;
  /** Persists what this process wrote and releases connections and files; not usable afterwards. */
  close(): Promise<void>;
}
