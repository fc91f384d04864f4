import type { Chunker } from './chunk/chunker.js';
import { MultiLanguageChunker } from './chunk/multi-language-chunker.js';
import { resolveConfig, DEFAULTS, type Config, type IndexOptions } from './config.js';
import { discoverFiles } from './discover/index.js';
import { resolveRealRoot } from './discover/open-regular-file.js';
import { createEmbedder } from './embed/create-embedder.js';
import type { Embedder } from './embed/embedder.js';
import { ConfigError } from './errors.js';
import { CHUNKER_VERSION } from './chunk/chunker-version.js';
import { discoverySettingsFor, type DiscoverySettings } from './indexer/discovery-settings.js';
import { makeIndexFolder } from './indexer/index-folder.js';
import { indexDirFor, isWritableLocation, readonlyLocationError } from './indexer/index-location.js';
import { openSharedReader } from './indexer/overlay-storage.js';
import { openPostgresStorage } from './indexer/postgres-storage.js';
import { openSqliteStorage } from './indexer/sqlite-storage.js';
import { verifyIndex } from './indexer/verify-index.js';
import { Indexer } from './indexer/indexer.js';
import { PassCounters, type ProgressListener, type UpdateReport } from './indexer/update-report.js';
import { compilePathGlobs } from './retrieve/path-globs.js';
import { MAX_TASK_CHARS } from './retrieve/task.js';
import { completeSimilarity, searchChunks, toHit, type ScoredChunk } from './retrieve/hybrid-search.js';
import type { AsyncCatalog } from './store/catalog-port.js';
import type { LexicalHit } from './store/catalog-types.js';
import type { IndexStorage } from './store/index-storage.js';
import type { VectorStore } from './store/vector-store.js';
import { applyStoredFilters, hasOwnGlobs, readStoredFilters, readStoredFiltersIfSound, storeFilters, type IndexFilters } from './stored-filters.js';
import type { Hit, SearchMode, SourceFile } from './types.js';

/** Options of {@link openIndex}. */
export interface OpenIndexOptions extends IndexOptions {
  /** Throw away an index written by another model (or damaged) and start again. */
  rebuild?: boolean;
  /** Use this embedder instead of provisioning the configured model (tests, custom models). */
  embedder?: Embedder;
  /** Chunker override. */
  chunker?: Chunker;
  /** Told about model provisioning and recovery steps. */
  onProgress?: ProgressListener;
  /**
   * Whether the `include`/`exclude` globs stored with the index (by `codescout index --include/--exclude`) apply when
   * these options name none (default true). Globs given here always win over the stored ones.
   */
  useStoredFilters?: boolean;
  /**
   * Writer or reader of a shared store (`store`; default reader): a writer takes the namespace's writer lock for as
   * long as the index stays open. The embedded store ignores it (its writers lock per write).
   */
  storeRole?: 'writer' | 'reader';
  /**
   * For a reader of a shared store: keep this working tree's edits in a local layer over the shared index, which this
   * index writes (`watch`, `mcp`), so changed, added and deleted files are searchable at once without writing to the
   * shared store. Default false: read the local layer another process keeps, if any, and write nothing.
   */
  localEdits?: boolean;
}

/** Options of {@link CodeIndex.search}. */
export interface SearchOptions {
  /** Results wanted (default 10). */
  k?: number;
  mode?: SearchMode;
  include?: readonly string[];
  exclude?: readonly string[];
}

/**
 * Whether an index can answer: `ready` (it has chunks), `empty` (nothing indexed yet, or the root has no indexable
 * file) or `reset` (emptied because its database was found damaged or lost, and not yet rebuilt: answers are
 * missing until `codescout index` runs).
 */
export type IndexState = 'ready' | 'empty' | 'reset';

/** Size and identity of an index. */
export interface IndexStats {
  readonly root: string;
  readonly indexDir: string;
  readonly model: string | null;
  readonly dimension: number | null;
  readonly revision: string | null;
  readonly files: number;
  readonly chunks: number;
  readonly vectors: number;
  readonly cachedVectors: number;
  /** Chunks written before their vectors (a build in progress, or one interrupted): found by words only until embedded. */
  readonly chunksWaiting: number;
  readonly bytesOnDisk: number;
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
  readonly schemaVersion: number | null;
  readonly indexState: IndexState;
  /** Why the index was reset (what was damaged, where it was moved), when `indexState` is `reset`. */
  readonly resetReason: string | null;
}

/**
 * Opens (creating when missing) the index of a root. Cheap: the model loads on the first write or vector search.
 * Without `include`/`exclude` of its own, it indexes with the globs stored with the index by `codescout index`.
 * @throws ConfigError for a bad root or cache dir or a damaged filters.json, IndexMismatchError for an index of another model.
 * @example
 * const index = await openIndex({ root: '.' });
 * await index.update();
 * const hits = await index.search('where are requests throttled', { k: 5 });
 * await index.close();
 */
export async function openIndex(given: OpenIndexOptions): Promise<CodeIndex> {
  const located = resolveConfig(given);
  const indexDir = indexDirFor(located.cacheDir, located.root);
  // The globs the index was built with, so that every opener indexes what `codescout index` was told to.
  // Read strictly only when they would apply: an opener that gives its own globs or forgets the stored ones (index
  // --reset-filters) must get past a damaged file.
  const forgetStored = given.useStoredFilters === false;
  let storedFilters = forgetStored ? null : hasOwnGlobs(given) ? readStoredFiltersIfSound(indexDir) : readStoredFilters(indexDir);
  let options = forgetStored ? given : applyStoredFilters(given, storedFilters);
  let config = options === given ? located : resolveConfig(options);
  // A plain reader of a shared store keeps nothing on this machine: no folder is made for it.
  if (config.store === null || options.storeRole === 'writer' || options.localEdits === true) await makeIndexFolder(indexDir);
  const notes: string[] = [];
  const note = (message: string): void => {
    notes.push(message);
    options.onProgress?.({ phase: 'model', filesDone: 0, filesTotal: 0, chunksEmbedded: 0, message });
  };
  const storage = await openStorage({ config, indexDir, options, note });
  try {
    // A shared store keeps its writer's globs with it: an opener on another machine without globs of its own (a
    // developer's watch --store, a fresh CI runner) indexes what the shared index holds.
    const shared = !forgetStored && storedFilters === null && !hasOwnGlobs(given) ? await storage.storage.sharedGlobs() : undefined;
    if (shared) {
      storedFilters = shared;
      options = applyStoredFilters(given, shared);
      config = resolveConfig(options);
    }
    const discovery = discoverySettingsFor(config, indexDir);
    const revision = (await storage.storage.catalog.getManifest())?.revision ?? options.embedder?.revision ?? config.model.onnxSha256;
    return new CodeIndex({ config, indexDir, discovery, ...storage, revision, notes, storedFilters, ...options });
  } catch (error) {
    await storage.storage.close();
    throw error;
  }
}

/**
 * The one place that picks the store: PostgreSQL when the configuration names one (`store`), else the embedded
 * SQLite catalog with its HNSW graph; and whether this index may be written, and if not, why.
 */
async function openStorage(o: { config: Config; indexDir: string; options: OpenIndexOptions; note: (message: string) => void }): Promise<{
  storage: IndexStorage; readonly: boolean; refusal: (action: string) => ConfigError;
}> {
  const { config, indexDir, options } = o;
  const rebuild = options.rebuild ?? false;
  if (config.store !== null && options.storeRole === 'writer') {
    const storage = await openPostgresStorage({ store: config.store, root: config.root, role: 'writer', model: config.model, rebuild, lockWaitMs: config.lockWaitMs });
    return { storage, readonly: false, refusal: (action) => readonlyLocationError(indexDir, action) };
  }
  if (config.store !== null) {
    if (rebuild) throw new ConfigError('A reader of the shared store cannot rebuild it: codescout index --store ... --rebuild writes.', 'rebuild');
    const { storage, writable, label } = await openSharedReader({
      store: config.store, root: config.root, indexDir, model: config.model, lockWaitMs: config.lockWaitMs, localEdits: options.localEdits ?? false, note: o.note,
    });
    const refusal = (action: string): ConfigError => new ConfigError(
      `Cannot ${action}: the shared index ${label} is open for reading. codescout index --store ... writes it; ` +
        'codescout watch --store ... keeps your own edits in a local layer over it.',
      'store',
    );
    return { storage, readonly: !writable, refusal };
  }
  // Readers of a read-only location (a shared cache, a read-only mount) open for reading; writers then fail with exit 2.
  const readonly = !isWritableLocation(indexDir);
  const storage = await openSqliteStorage({
    indexDir, root: config.root, model: config.model, revision: options.embedder?.revision ?? config.model.onnxSha256,
    lockWaitMs: config.lockWaitMs, readonly, rebuild, note: o.note,
  });
  return { storage, readonly, refusal: (action) => readonlyLocationError(indexDir, action) };
}

/** One root's index: the catalog (truth), the vector store (derived) and, lazily, the embedder. */
export class CodeIndex {
  /** The complete configuration in force. */
  readonly config: Config;
  /** The folder holding this index's files. */
  readonly indexDir: string;
  /** What discovery of this index honours (globs, size cap, excluded folders, the secret policy): for every caller that inspects files. */
  readonly discovery: DiscoverySettings;
  /** Messages about recovery done while opening or writing (damaged files moved aside, rebuilt vectors). */
  readonly notes: readonly string[];
  /** True when the index location cannot be written: searches work, writes throw ConfigError. */
  readonly isReadonly: boolean;
  /**
   * The globs stored with the index by `codescout index --include/--exclude` (null when none): in force in
   * `config` unless the options of {@link openIndex} named globs of their own or `useStoredFilters: false`.
   */
  readonly storedFilters: IndexFilters | null;
  private readonly noteList: string[];
  private readonly storage: IndexStorage;
  private readonly refusal: (action: string) => ConfigError;
  private readonly chunker: Chunker;
  private embedderPromise: Promise<Embedder> | undefined;
  private revision: string;
  private closed = false;

  /** @internal use {@link openIndex}. */
  constructor(o: {
    config: Config;
    indexDir: string;
    discovery: DiscoverySettings;
    storage: IndexStorage;
    revision: string;
    notes: string[];
    readonly: boolean;
    refusal: (action: string) => ConfigError;
    storedFilters: IndexFilters | null;
    embedder?: Embedder;
    chunker?: Chunker;
    onProgress?: ProgressListener;
  }) {
    this.config = o.config;
    this.indexDir = o.indexDir;
    this.discovery = o.discovery;
    this.storage = o.storage;
    this.revision = o.revision;
    this.notes = o.notes;
    this.noteList = o.notes;
    this.isReadonly = o.readonly;
    this.refusal = o.refusal;
    this.storedFilters = o.storedFilters;
    if (o.embedder) this.embedderPromise = Promise.resolve(o.embedder);
    this.chunker = o.chunker ?? new MultiLanguageChunker({ maxTokens: o.config.model.maxTokens });
  }

  // The store may replace both after damage met during a write (IndexStorage.replaceDamaged): always read them afresh.
  private get catalog(): AsyncCatalog {
    return this.storage.catalog;
  }

  private get vectors(): VectorStore {
    return this.storage.vectors;
  }

  /** The embedder, provisioning and loading the model on first use. */
  embedder(onProgress?: ProgressListener): Promise<Embedder> {
    this.embedderPromise ??= createEmbedder({
      spec: this.config.model,
      modelDir: this.config.modelDir,
      modelsDir: this.config.modelsDir,
      fallbackModelsDirs: this.config.fallbackModelsDirs,
      offline: this.config.offline,
      mavenUrl: this.config.mavenUrl,
      httpsProxy: this.config.httpsProxy,
      onStep: (message) => onProgress?.({ phase: 'model', filesDone: 0, filesTotal: 0, chunksEmbedded: 0, message }),
    });
    return this.embedderPromise;
  }

  /**
   * Brings the index in line with the disk: discovers files, removes vanished or newly ignored ones,
   * re-chunks changed ones and embeds only texts not in the cache. Takes the write lock for its duration.
   * @throws IndexLockedError when another writer holds the lock past `lockWaitMs`.
   */
  async update(options: { onProgress?: ProgressListener; signal?: AbortSignal; lockWaitMs?: number } = {}): Promise<UpdateReport> {
    const started = performance.now();
    const counters = await this.withWriteLock(options, (indexer, c) => this.fullPass(indexer, c, options));
    return this.report(counters, started);
  }

  /**
   * Applies a change set: `files` (re)indexed through the incremental path, `removed` paths (files or folders,
   * relative) dropped with everything below them. For the watcher and `reindex` of chosen paths.
   */
  async applyChanges(
    change: { files: readonly SourceFile[]; removed: readonly string[] },
    options: { onProgress?: ProgressListener; lockWaitMs?: number } = {},
  ): Promise<UpdateReport> {
    const started = performance.now();
    const counters = await this.withWriteLock(options, async (indexer, c) => {
      if (change.removed.length > 0) {
        const gone = new Set<string>();
        const all = (await this.catalog.listFiles()).map((f) => f.path);
        for (const r of change.removed) {
          const prefix = r.replace(/\/+$/, '') + '/';
          for (const p of all) if (p === r || p.startsWith(prefix)) gone.add(p);
        }
        await indexer.removeFiles([...gone], c);
      }
      await indexer.indexFiles({ files: change.files, counters: c, onProgress: options.onProgress });
    });
    return this.report(counters, started);
  }

  /**
   * One-shot search. `mode` defaults to hybrid (vector + BM25 fused by reciprocal rank). Each hit carries its code
   * as indexed and, in vector and hybrid mode, its cosine similarity to the query (also for lexical-only hits).
   * @throws ConfigError for a malformed include/exclude glob, a text over MAX_TASK_CHARS characters, or a `k` that
   * is not a positive whole number.
   */
  async search(text: string, options: SearchOptions = {}): Promise<Hit[]> {
    if (text.length > MAX_TASK_CHARS) {
      throw new ConfigError(`The search text has ${text.length} characters; the limit is ${MAX_TASK_CHARS}. Search for a few words or one identifier.`, 'text');
    }
    if (options.k !== undefined && (!Number.isSafeInteger(options.k) || options.k < 1)) {
      throw new ConfigError(`k must be a positive whole number of results; got ${options.k}.`, 'k');
    }
    const vector = (options.mode ?? 'hybrid') === 'lexical' ? undefined : await (await this.embedder()).embedQuery(text);
    const scored = await this.searchScored(text, { ...options, vector });
    if (vector === undefined) return scored.map(toHit);
    return (await completeSimilarity(scored, vector, (ids) => this.catalog.vectorsForRows(ids, this.revision))).map(toHit);
  }

  /** @internal Like {@link search} but keeps the raw evidence (similarity, BM25) and the chunk rows: for the retrieval loop. */
  async searchScored(
    text: string,
    options: SearchOptions & { vector?: Float32Array; wholeWordsOnly?: boolean; lexicalHits?: readonly LexicalHit[] } = {},
  ): Promise<ScoredChunk[]> {
    const mode = options.mode ?? 'hybrid';
    const accept = compilePathGlobs(options.include, options.exclude);
    await this.vectors.catchUp();
    const vector = mode === 'lexical' ? undefined : (options.vector ?? (await (await this.embedder()).embedQuery(text)));
    return searchChunks({ catalog: this.catalog, vectors: this.vectors }, {
      mode, k: options.k ?? 10, vector, text, accept, wholeWordsOnly: options.wholeWordsOnly, lexicalHits: options.lexicalHits,
    });
  }

  /** Counts and identity of the index. */
  async stats(): Promise<IndexStats> {
    const [m, s, vectors, chunksWaiting, state] = await Promise.all([
      this.catalog.getManifest(), this.catalog.stats(), this.vectors.count(), this.catalog.pendingChunkCount(), this.state(),
    ]);
    return {
      root: this.config.root,
      indexDir: this.indexDir,
      model: m?.model ?? null,
      dimension: m?.dimension ?? null,
      revision: m?.revision ?? null,
      files: s.files,
      chunks: s.chunks,
      vectors,
      cachedVectors: s.cachedVectors,
      chunksWaiting,
      bytesOnDisk: s.dbBytes + this.vectors.bytesOnDisk(),
      createdAt: m?.createdAt ?? null,
      updatedAt: m?.updatedAt ?? null,
      schemaVersion: m?.schemaVersion ?? null,
      ...state,
    };
  }

  /** Chunks written before their vectors (cheap: a look-up when none wait); see {@link IndexStats.chunksWaiting}. */
  chunksWaiting(): Promise<number> {
    return this.catalog.pendingChunkCount();
  }

  /** @throws ConfigError (exit 2) naming `action` when the index location is read-only, or a shared store was opened for reading. */
  assertWritable(action = 'update the index'): void {
    if (this.isReadonly) throw this.refusal(action);
  }

  /**
   * Keeps the globs a writer indexes with (null: forget them): in filters.json in the index folder, and with a shared
   * store too, so that its readers on other machines index what it holds.
   * @throws ConfigError when the index cannot be written.
   */
  async storeFilters(filters: IndexFilters | null): Promise<void> {
    this.assertWritable();
    await storeFilters(this.indexDir, filters);
    await this.storage.storeSharedGlobs(filters);
  }

  /** Whether the index can answer, and why not when it was reset (cheap: no table scans). */
  async state(): Promise<{ indexState: IndexState; resetReason: string | null }> {
    const resetReason = await this.catalog.resetReason();
    return { indexState: resetReason !== null ? 'reset' : (await this.catalog.chunkCount()) === 0 ? 'empty' : 'ready', resetReason };
  }

  /**
   * Checks the index end to end: the store's integrity (for SQLite: integrity and foreign keys, FTS, its own check
   * and one row per chunk), a cached vector for every chunk, the manifest (model, dimension, schema version,
   * generation), vector-store labels equal to chunk rows, and every stored vector equal to the chunk's cached one.
   * Returns one line per problem (empty = healthy). Automatic repairs done while opening are in {@link notes}, not problems.
   */
  verify(): Promise<string[]> {
    return verifyIndex({ catalog: this.catalog, vectors: this.vectors, model: this.config.model });
  }

  /** @internal The catalog and vectors behind their ports, for the retrieval loop (read-mostly). */
  get store(): { catalog: AsyncCatalog; vectors: VectorStore; revision: string } {
    return { catalog: this.catalog, vectors: this.vectors, revision: this.revision };
  }

  /** Saves pending vector changes (when this process wrote), releases the model and closes the database. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.storage.close();
    const embedder = await this.embedderPromise?.catch(() => undefined);
    await embedder?.dispose();
  }

  /**
   * Runs a write under the store's write hold and returns its counters. Damage met on the way that the store
   * repairs by starting afresh (IndexStorage.replaceDamaged) is followed by a full pass that rebuilds the index.
   */
  private async withWriteLock(
    options: { onProgress?: ProgressListener; signal?: AbortSignal; lockWaitMs?: number },
    fn: (indexer: Indexer, counters: PassCounters) => Promise<void>,
  ): Promise<PassCounters> {
    this.assertWritable();
    const hold = await this.storage.holdForWrite({ waitMs: options.lockWaitMs ?? this.config.lockWaitMs });
    try {
      const embedder = await this.embedder(options.onProgress);
      await this.ensureManifest(embedder);
      await this.vectors.catchUp();
      const realRoot = await resolveRealRoot(this.config.root);
      let counters = new PassCounters();
      try {
        await fn(this.indexerFor(embedder, realRoot), counters);
      } catch (error) {
        if (!(await this.storage.replaceDamaged(error, (message) => this.note(message, options.onProgress)))) throw error;
        await this.ensureManifest(embedder);
        counters = new PassCounters();
        await this.fullPass(this.indexerFor(embedder, realRoot), counters, options);
      } finally {
        await this.catalog.touch();
        await this.vectors.written();
      }
      return counters;
    } finally {
      await hold.release();
    }
  }

  /** Discovers the root, drops files no longer there, indexes the rest; the index then matches the disk. */
  private async fullPass(indexer: Indexer, counters: PassCounters, options: { onProgress?: ProgressListener; signal?: AbortSignal }): Promise<void> {
    options.onProgress?.({ phase: 'discover', filesDone: 0, filesTotal: 0, chunksEmbedded: 0 });
    const found = await discoverFiles({ ...this.discovery, signal: options.signal });
    counters.skipped.push(...found.skipped);
    const present = new Set(found.files.map((f) => f.path));
    await indexer.removeFiles((await this.catalog.listFiles()).map((f) => f.path).filter((p) => !present.has(p)), counters);
    // Chunks made by another chunker version (an upgrade) are made again, unchanged files' too; texts that stay the
    // same keep their rows and vectors, so only what the new chunker cuts differently is embedded.
    const recorded = await this.catalog.chunkerVersion();
    const rechunk = recorded !== undefined && recorded !== CHUNKER_VERSION;
    if (rechunk && (await this.catalog.chunkCount()) > 0) {
      this.note(`the index was chunked by another codescout version (chunker ${recorded ?? 'unrecorded'}, now ${CHUNKER_VERSION}); chunking every file again, reusing the vectors of unchanged text`, options.onProgress);
    }
    await indexer.indexFiles({ files: found.files, counters, onProgress: options.onProgress, signal: options.signal, rechunk });
    await this.catalog.clearReset();
    if (rechunk) await this.catalog.setChunkerVersion(CHUNKER_VERSION);
  }

  private indexerFor(embedder: Embedder, realRoot: string): Indexer {
    return new Indexer({
      catalog: this.catalog, vectors: this.vectors, chunker: this.chunker, embedder: async () => embedder, realRoot, secrets: this.discovery.secrets,
    });
  }

  /** Keeps a note about a repair and tells the listener. */
  private note(message: string, onProgress?: ProgressListener): void {
    this.noteList.push(message);
    onProgress?.({ phase: 'model', filesDone: 0, filesTotal: 0, chunksEmbedded: 0, message });
  }

  /** Records the model on a new index, or refuses an embedder that differs from the one that wrote it. */
  private async ensureManifest(embedder: Embedder): Promise<void> {
    const manifest = await this.catalog.getManifest();
    if (!manifest) {
      await this.catalog.initManifest({ model: embedder.model, dimension: embedder.dimension, revision: embedder.revision, root: this.config.root });
    } else {
      await this.catalog.assertCompatible(embedder);
    }
    if (this.revision !== embedder.revision) {
      this.revision = embedder.revision;
    }
  }

  private async report(c: PassCounters, started: number): Promise<UpdateReport> {
    const s = await this.catalog.stats();
    return {
      root: this.config.root,
      files: s.files,
      chunks: s.chunks,
      filesChanged: c.filesChanged,
      embedded: c.embedded,
      reused: c.reused,
      removed: c.removed,
      skipped: c.skipped,
      seconds: Number(((performance.now() - started) / 1000).toFixed(3)),
    };
  }

  /** Saves the vector store now (under the write lock). For the watcher's shutdown and tests. */
  async flush(): Promise<void> {
    await this.vectors.flush();
  }
}
