import type { EmbedderIdentity } from '../embed/embedder.js';
import type {
  CatalogStats, ChunkRow, FileRow, LexicalHit, Manifest, ReplaceFileInput, ReplaceFileResult,
} from './catalog-types.js';

/** Options of {@link AsyncCatalog.lexicalSearch}, as the SQLite catalog takes them. */
export interface LexicalSearchOptions {
  readonly k: number;
  /** Keeps only hits whose path it accepts; ranked matches are read in growing pages until k pass. */
  readonly accept?: (path: string) => boolean;
  /** Match whole identifiers only, not their split parts. */
  readonly wholeWordsOnly?: boolean;
  /** Most query terms used, the rarest first. */
  readonly maxTerms?: number;
}

/**
 * The catalog of one index as an asynchronous port: files, chunks, the embedding cache, the lexical index and the
 * queue of texts waiting for vectors. Every layer above the store (indexer, retrieval, CLI, MCP) reads and writes
 * the catalog through this port only. Method names and meanings mirror the synchronous SQLite `Catalog`
 * (src/store/catalog.ts), which `SqliteAsyncCatalog` wraps; the PostgreSQL catalog (`PostgresCatalog`) implements it
 * for one namespace `(repo, ref)`.
 *
 * Row ids are integers never reused within one store (the SQLite AUTOINCREMENT key, a PostgreSQL sequence). SQLite
 * maintenance (`sqliteProblems`, `reindex`, cache rows by SQLite rowid) stays outside the port.
 * Write methods of a catalog opened for reading throw ConfigError.
 */
export interface AsyncCatalog {
  /** The schema version this code reads and writes (verification compares the manifest's with it). */
  readonly schemaVersion: number;
  /** The manifest, or null until `initManifest` has recorded a model. */
  getManifest(): Promise<Manifest | null>;
  /** Records the embedder identity and root (overwriting any previous one). */
  initManifest(input: EmbedderIdentity & { readonly root: string }): Promise<void>;
  /** Forgets model, dimension, revision and root (the generation stays), e.g. before a rebuild. */
  resetManifest(): Promise<void>;
  /** Throws IndexMismatchError when the index was built by another model, dimension or revision. */
  assertCompatible(identity: EmbedderIdentity): Promise<void>;
  /** Sets the manifest's updatedAt to now. */
  touch(): Promise<void>;
  /**
   * The chunker version the last complete full pass chunked every file with (null: none recorded); undefined for a
   * catalog whose files are not chunked again on a version change (a local layer over a shared index).
   */
  chunkerVersion(): Promise<string | null | undefined>;
  /** Records the chunker version once a full pass has chunked every file with it. */
  setChunkerVersion(version: string): Promise<void>;
  /** Counter bumped by every write transaction that changed chunks. */
  generation(): Promise<number>;
  /** Number of chunks. */
  chunkCount(): Promise<number>;

  /** The indexed file at `path` (relative, POSIX), or undefined. */
  getFile(path: string): Promise<FileRow | undefined>;
  /** Every indexed file, ordered by path. */
  listFiles(): Promise<FileRow[]>;
  /** Records a new size and mtime for a file whose content did not change; no-op when not indexed. */
  touchFile(input: { readonly path: string; readonly size: number; readonly mtimeMs: number }): Promise<void>;

  /** Sound cached vectors of the given chunk hashes under `revision`, by hash. */
  cachedVectors(hashes: readonly string[], revision: string): Promise<Map<string, Float32Array>>;
  /** Replaces one file's row, chunks, lexical rows and new cache vectors in one transaction. */
  replaceFile(input: ReplaceFileInput): Promise<ReplaceFileResult>;
  /** Removes files with their chunks in one transaction; returns the removed chunk row ids. */
  removeFiles(paths: readonly string[]): Promise<number[]>;
  /** Removes every file and chunk (the embedding cache stays) and bumps the generation: for --rebuild. */
  clear(): Promise<void>;
  /** Deletes the cached vectors of the given text hashes under `revision`; returns how many went. */
  dropCachedVectors(hashes: readonly string[], revision: string): Promise<number>;
  /** Drops cache rows no live chunk uses, keeping the `keepUnreferenced` most recently used; returns how many went. */
  pruneEmbeddings(options: { readonly revision: string; readonly keepUnreferenced: number }): Promise<number>;

  /** Why the index was emptied after damage, or null. */
  resetReason(): Promise<string | null>;
  /** Records that the index was emptied after damage, and why. */
  markReset(reason: string): Promise<void>;
  /** Forgets the reset mark. */
  clearReset(): Promise<void>;

  /** The chunks with the given row ids, in the order asked; unknown ids are left out. */
  getChunks(rowIds: readonly number[]): Promise<ChunkRow[]>;
  /** Path of each of the given chunk rows (rows that no longer exist are left out). */
  rowPaths(rowIds: readonly number[]): Promise<Map<number, string>>;
  /** The chunk with row id `rowId`, or undefined. */
  getChunkByRowId(rowId: number): Promise<ChunkRow | undefined>;
  /** BM25 search over chunk text + lexical terms, path and symbol; best first, higher score = better. */
  lexicalSearch(query: string, options: LexicalSearchOptions): Promise<LexicalHit[]>;
  /** Document frequency (chunks containing it) of each lower-case word. */
  documentFrequencies(words: readonly string[]): Promise<Map<string, number>>;
  /** Row ids of symbol chunks named one of `names` (definitions), at most `limit`. */
  findSymbolRowIds(names: readonly string[], limit?: number, options?: { includeMethods?: boolean }): Promise<number[]>;
  /** Paths of the files that define (top level) each of `names`, from at most `limit` chunks. */
  symbolPaths(names: readonly string[], limit?: number): Promise<Map<string, string[]>>;

  /** Every live chunk with a cached vector under `revision`, in row id order, read in batches. */
  allVectors(revision: string): AsyncGenerator<{ rowId: number; vector: Float32Array }>;
  /** Cached vectors of the given live chunk rows under `revision`; rows without one are left out. */
  vectorsForRows(rowIds: readonly number[], revision: string): Promise<Array<{ rowId: number; vector: Float32Array }>>;
  /** Live chunks with neither a cached vector under `revision` nor a queued text. */
  missingVectors(revision: string): Promise<Array<{ rowId: number; hash: string }>>;
  /** Up to `limit` texts waiting for their vectors, oldest first. */
  pendingTexts(limit: number): Promise<Array<{ hash: string; embedText: string }>>;
  /** Caches vectors of queued texts and dequeues them in one transaction; returns the chunk rows that use them. */
  storePendingVectors(vectors: ReadonlyMap<string, Float32Array>, revision: string): Promise<Array<{ rowId: number; hash: string }>>;
  /** Drops queued texts no live chunk uses any more; returns how many. */
  dropUnusedPendingTexts(): Promise<number>;
  /** Row ids of the live chunks whose vectors are still being made. */
  waitingRowIds(): Promise<number[]>;
  /** Live chunks whose vectors are still being made. */
  pendingChunkCount(): Promise<number>;
  /** Row ids of every live chunk, ascending. */
  liveRowIds(): Promise<number[]>;
  /** Highest chunk row id ever handed out (0 when none), including deleted rows. */
  maxRowId(): Promise<number>;

  /** Counts of files, chunks and cached vectors, and the store's size in bytes. */
  stats(): Promise<CatalogStats>;
  /** Consistency checks; returns the problems found (empty = healthy). */
  integrityCheck(): Promise<string[]>;
  /** Releases connections and locks; not usable afterwards. Safe to call twice. */
  close(): Promise<void>;
}
