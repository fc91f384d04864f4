import type { StoreSettings } from '../config.js';
import type { ModelSpec } from '../embed/models.js';
import { ConfigError, IndexMismatchError } from '../errors.js';
import type { IndexStorage, WriteHold } from '../store/index-storage.js';
import type { IndexFilters } from '../stored-filters.js';
import { PgvectorStore } from '../store/postgres/pgvector-store.js';
import { isMissingNamespace, PostgresCatalog } from '../store/postgres/postgres-catalog.js';
import { LayeredStorage, type NamedStorage } from './layered-storage.js';
import { defaultBranch, storeNamespace } from './store-namespace.js';

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
  /** Told in one sentence when a reader reads another namespace than the checkout's branch (its default branch). */
  readonly note?: (message: string) => void;
}

/** Most bases one namespace may stand on (a branch over a branch over ...); more is taken for a loop. */
const MAX_BASE_DEPTH = 8;

/**
 * Opens one namespace `(repo, ref)` of a PostgreSQL store. A writer migrates the schema and takes the namespace's
 * writer lock for as long as it stays open; a reader needs the namespace to exist. A namespace that is a branch of
 * another (`baseRef`, recorded with it) opens over its base, read only: it holds only the files that differ.
 * @throws StoreUnavailableError (unreachable, auth, TLS: CLI exit 8), IndexLockedError (another writer, named),
 * IndexMismatchError (another model), ConfigError (no such namespace for a reader, no git checkout to name it, a
 * base that does not exist or loops, another base for a namespace already indexed without --rebuild).
 */
export async function openPostgresStorage(o: OpenPostgresStorageOptions): Promise<NamedStorage> {
  const { repo, ref } = await storeNamespace(o.root, o.store);
  try {
    return await openNamespace({ ...o, repo, ref, baseRef: o.role === 'writer' ? o.store.baseRef : undefined, above: [] });
  } catch (error) {
    // A reader on a branch CI never indexed (a developer's own branch) reads the default branch's index instead;
    // its local layer of edits (watch, mcp) then holds everything the branch changed. A ref given by hand is kept.
    if (o.role !== 'reader' || o.store.ref !== undefined || !isMissingNamespace(error)) throw error;
    const fallback = await defaultBranch(o.root);
    if (fallback === null || fallback === ref) throw error;
    const storage = await openNamespace({ ...o, repo, ref: fallback, baseRef: undefined, above: [] }).catch(() => {
      throw error;
    });
    o.note?.(`${repo}@${ref} has no shared index; reading ${repo}@${fallback} (the origin's default branch) instead. Pass --ref to choose.`);
    return storage;
  }
}

async function openNamespace(o: OpenPostgresStorageOptions & { repo: string; ref: string; baseRef: string | undefined; above: readonly string[] }): Promise<NamedStorage> {
  const catalog = await PostgresCatalog.open({ connectionString: o.store.connectionString, repo: o.repo, ref: o.ref, mode: o.role === 'writer' ? 'write' : 'read', lockWaitMs: o.lockWaitMs });
  let base: NamedStorage | undefined;
  try {
    const manifest = await catalog.getManifest();
    if (manifest && !o.rebuild && (manifest.model !== o.model.id || manifest.dimension !== o.model.dimension)) {
      throw new IndexMismatchError(
        `${catalog.label} was built with ${manifest.model} (${manifest.dimension}d); the embedder is ${o.model.id} ` +
          `(${o.model.dimension}d). Run: codescout index --store ... --rebuild (or pass --model ${manifest.model}).`,
        catalog.label,
      );
    }
    // The base is checked (it exists, it does not loop) before anything is emptied: a mistyped --base-ref with
    // --rebuild must leave the namespace as it was.
    const recorded = await catalog.baseRef();
    const baseRef = o.baseRef ?? recorded;
    if (baseRef !== null) {
      if (baseRef === o.ref || o.above.includes(baseRef) || o.above.length >= MAX_BASE_DEPTH) {
        throw new ConfigError(`${catalog.label} cannot stand on ${o.repo}@${baseRef}: the bases loop (${[...o.above, o.ref, baseRef].join(' -> ')}). Index it with another --base-ref.`, 'baseRef');
      }
      base = await openBase({ ...o, ref: baseRef, above: [...o.above, o.ref] }, catalog.label);
    }
    if (o.rebuild) {
      await catalog.clear();
      await catalog.resetManifest();
    }
    if (o.baseRef !== undefined && o.baseRef !== recorded) await rebase(catalog, o.baseRef, recorded);
    const own = new PostgresStorage(catalog, o.role);
    if (base === undefined) return own;
    // A new branch takes its base's model, so that it is written with the vectors its base's cache already holds.
    if (o.role === 'writer' && (await catalog.getManifest()) === null) {
      const identity = await base.catalog.getManifest();
      if (identity !== null) await catalog.initManifest(identity);
    }
    return new LayeredStorage(base, own, `${catalog.label} over ${baseRef}`);
  } catch (error) {
    await base?.close();
    await catalog.close();
    throw error;
  }
}

/** Opens a branch's base for reading, saying which branch needs it when it does not exist. */
async function openBase(o: Parameters<typeof openNamespace>[0], branch: string): Promise<NamedStorage> {
  try {
    return await openNamespace({ ...o, role: 'reader', rebuild: false, baseRef: undefined });
  } catch (error) {
    if (!isMissingNamespace(error)) throw error;
    throw new ConfigError(`${branch} is a branch of ${o.repo}@${o.ref}, which has no index. Index the base first: codescout index --store ... --ref ${o.ref}.`, 'baseRef', { cause: error });
  }
}

/**
 * Records `baseRef` as the writer's base. A namespace already indexed over another base (or none) holds files
 * relative to that one: it must be emptied first (--rebuild), not silently reinterpreted.
 */
async function rebase(catalog: PostgresCatalog, baseRef: string, recorded: string | null): Promise<void> {
  if ((await catalog.stats()).files > 0) {
    const was = recorded === null ? 'as a whole index' : `over ${recorded}`;
    throw new ConfigError(`${catalog.label} was indexed ${was}; to index it over ${baseRef}, add --rebuild (it is emptied first).`, 'baseRef');
  }
  await catalog.setBaseRef(baseRef);
}

/**
 * A namespace of the PostgreSQL store behind the {@link IndexStorage} port: the catalog, the pgvector search over its
 * vectors, and the writer lock held since the open (a write needs no other hold; a reader is refused one).
 */
export class PostgresStorage implements NamedStorage {
  readonly vectors: PgvectorStore;

  constructor(readonly catalog: PostgresCatalog, readonly role: StoreRole) {
    this.vectors = new PgvectorStore(catalog);
  }

  get label(): string {
    return this.catalog.label;
  }

  /** A writer holds the namespace's lock already; a reader may not write. */
  async holdForWrite(): Promise<WriteHold> {
    if (this.role === 'reader') {
      throw new ConfigError(`${this.catalog.label} was opened for reading. Only codescout index --store ... writes a shared index.`, 'store');
    }
    return { release: async () => undefined };
  }

  async sharedGlobs(): Promise<IndexFilters | null> {
    return this.catalog.globs();
  }

  async storeSharedGlobs(filters: IndexFilters | null): Promise<void> {
    await this.catalog.setGlobs(filters);
  }

  /** Damage inside PostgreSQL is the server's to repair: nothing is replaced here. */
  async replaceDamaged(): Promise<boolean> {
    return false;
  }

  async close(): Promise<void> {
    await this.catalog.close();
  }
}
