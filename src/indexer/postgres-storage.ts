import type { StoreSettings } from '../config.js';
import type { ModelSpec } from '../embed/models.js';
import { ConfigError, IndexMismatchError } from '../errors.js';
import type { IndexStorage, WriteHold } from '../store/index-storage.js';
import { PgvectorStore } from '../store/postgres/pgvector-store.js';
import { PostgresCatalog } from '../store/postgres/postgres-catalog.js';
import { storeNamespace } from './store-namespace.js';

/** Which side of a shared store a process is on: one writer per namespace at a time, any number of readers. */
export type StoreRole = 'writer' | 'reader';

/** Options of {@link openPostgresStorage}. */
export interface OpenPostgresStorageOptions {
  readonly store: StoreSettings;
  /** The indexed root: its git checkout names the namespace unless the settings do. */
  readonly root: string;
  readonly role: StoreRole;
  /** The configured model: a namespace built by another model or dimension is refused unless `rebuild`. */
  readonly model: ModelSpec;
  /** Empty the namespace (a writer only) and start again. */
  readonly rebuild: boolean;
  /** How long a writer waits for another writer of the namespace to finish (ms; 0 = refuse at once). */
  readonly lockWaitMs?: number;
}

/**
 * Opens one namespace `(repo, ref)` of a PostgreSQL store. A writer migrates the schema and takes the namespace's
 * writer lock for as long as it stays open; a reader needs the namespace to exist.
 * @throws StoreUnavailableError (unreachable, auth, TLS: CLI exit 8), IndexLockedError (another writer, named),
 * IndexMismatchError (another model), ConfigError (no such namespace for a reader, no git checkout to name it).
 */
export async function openPostgresStorage(o: OpenPostgresStorageOptions): Promise<PostgresStorage> {
  const { repo, ref } = await storeNamespace(o.root, o.store);
  const catalog = await PostgresCatalog.open({ connectionString: o.store.connectionString, repo, ref, mode: o.role === 'writer' ? 'write' : 'read', lockWaitMs: o.lockWaitMs });
  try {
    const manifest = await catalog.getManifest();
    if (manifest && !o.rebuild && (manifest.model !== o.model.id || manifest.dimension !== o.model.dimension)) {
      throw new IndexMismatchError(
        `${catalog.label} was built with ${manifest.model} (${manifest.dimension}d); the embedder is ${o.model.id} ` +
          `(${o.model.dimension}d). Run: codescout index --store ... --rebuild (or pass --model ${manifest.model}).`,
        catalog.label,
      );
    }
    if (o.rebuild) {
      await catalog.clear();
      await catalog.resetManifest();
    }
    return new PostgresStorage(catalog, o.role);
  } catch (error) {
    await catalog.close();
    throw error;
  }
}

/**
 * A namespace of the PostgreSQL store behind the {@link IndexStorage} port: the catalog, the pgvector search over its
 * vectors, and the writer lock held since the open (a write needs no other hold; a reader is refused one).
 */
export class PostgresStorage implements IndexStorage {
  readonly vectors: PgvectorStore;

  constructor(readonly catalog: PostgresCatalog, readonly role: StoreRole) {
    this.vectors = new PgvectorStore(catalog);
  }

  /** A writer holds the namespace's lock already; a reader may not write. */
  async holdForWrite(): Promise<WriteHold> {
    if (this.role === 'reader') {
      throw new ConfigError(`${this.catalog.label} was opened for reading. Only codescout index --store ... writes a shared index.`, 'store');
    }
    return { release: async () => undefined };
  }

  /** Damage inside PostgreSQL is the server's to repair: nothing is replaced here. */
  async replaceDamaged(): Promise<boolean> {
    return false;
  }

  async close(): Promise<void> {
    await this.catalog.close();
  }
}
