import type Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import type { EmbedderIdentity } from '../embed/embedder.js';
import { IndexCorruptError, IndexMismatchError } from '../errors.js';
import type { ChunkKind, Language } from '../types.js';
import { catalogPath, openCatalogDatabase, type CatalogDatabase, type OpenDatabaseOptions } from './catalog-open.js';
import type {
  CatalogStats, ChunkRow, FileRow, LexicalHit, Manifest, ReplaceFileInput, ReplaceFileResult,
} from './catalog-types.js';
import { checkCatalogIntegrity, sqliteIntegrityProblems } from './catalog-integrity.js';
import { rowPaths, searchChunksFts } from './lexical-search.js';
import { dropUnusedPendingTexts, hasPendingTable, nextPendingTexts, pendingChunkCount, storePendingVectors } from './pending-texts.js';
import { bumpGeneration, deleteChunkRows, replaceFileRows } from './replace-file.js';
import { blobToVector } from './vector-codec.js';
import { documentFrequencies, symbolPaths, symbolRowIds } from './term-stats.js';
import { deleteVectorRows, isSoundVector, unsoundVectorRows } from './vector-health.js';

/** Rows read per batch when streaming every vector, so no cursor stays open across caller code. */
const VECTOR_BATCH_ROWS = 1000;

const CHUNK_SELECT = `SELECT c.id, c.chunk_key, f.path, f.language, c.kind, c.symbol, c.parent, c.signature,
  c.start_line, c.end_line, c.part_index, c.part_count, c.text_hash, c.text
  FROM chunks c JOIN files f ON f.id = c.file_id`;

interface RawChunk {
  id: number; chunk_key: string; path: string; language: string; kind: string; symbol: string;
  parent: string | null; signature: string; start_line: number; end_line: number;
  part_index: number | null; part_count: number | null; text_hash: string; text: string;
}
interface RawFile { path: string; size: number; mtime_ms: number; content_hash: string; language: string; indexed_at: number }

/**
 * The SQLite catalog of one index: files, chunks, the embedding cache and the FTS index. It is the
 * source of truth; the vector index is derived from it. All methods are synchronous (better-sqlite3).
 */
/** Most words whose document frequency a catalog remembers before it starts over. */
const DF_CACHE_LIMIT = 100_000;

export class Catalog {
  private readonly statements = new Map<string, Database.Statement>();
  private dimensionCache: number | undefined;
  private chunkCountCache: { generation: number; count: number } | undefined;
  private dfCache: { generation: number; df: Map<string, number> } = { generation: -1, df: new Map() };

  private readonly db: Database.Database;

  private constructor(
    private readonly opened: CatalogDatabase,
    /** Directory holding catalog.sqlite. */
    readonly indexDir: string,
    /** True when opened readonly: writes throw. */
    readonly isReadonly: boolean,
  ) {
    this.db = opened.db;
  }

  /**
   * Opens the catalog of `indexDir`, creating directory and schema unless readonly.
   * Throws IndexCorruptError (damaged file), IndexMismatchError (other schema), ConfigError (readonly, missing).
   */
  static open(indexDir: string, options: OpenDatabaseOptions = {}): Catalog {
    return new Catalog(openCatalogDatabase(indexDir, options), indexDir, options.readonly ?? false);
  }

  private sql(query: string): Database.Statement {
    let statement = this.statements.get(query);
    if (statement === undefined) {
      statement = this.db.prepare(query);
      this.statements.set(query, statement);
    }
    return statement;
  }

  /** The manifest, or null until `initManifest` has recorded a model. */
  getManifest(): Manifest | null {
    const rows = this.sql('SELECT key, value FROM manifest').all() as Array<{ key: string; value: string }>;
    const m = new Map(rows.map((r) => [r.key, r.value]));
    const model = m.get('model');
    if (model === undefined) return null;
    return {
      schemaVersion: Number(m.get('schemaVersion')), model, dimension: Number(m.get('dimension')),
      revision: m.get('revision') ?? '', root: m.get('root') ?? '', createdAt: m.get('createdAt') ?? '',
      updatedAt: m.get('updatedAt') ?? '', generation: Number(m.get('generation') ?? 0),
    };
  }

  /** Records the embedder identity and root of the index (overwriting any previous one). */
  initManifest(input: EmbedderIdentity & { readonly root: string }): void {
    const set = this.sql('INSERT OR REPLACE INTO manifest (key, value) VALUES (?, ?)');
    this.db.transaction(() => {
      set.run('model', input.model);
      set.run('dimension', String(input.dimension));
      set.run('revision', input.revision);
      set.run('root', input.root);
      set.run('updatedAt', new Date().toISOString());
    })();
    this.dimensionCache = undefined;
  }

  /** Forgets the recorded model, dimension, revision and root (the generation stays), e.g. before a rebuild. */
  resetManifest(): void {
    this.db.transaction(() => {
      this.sql("DELETE FROM manifest WHERE key IN ('model', 'dimension', 'revision', 'root')").run();
      this.sql("INSERT OR REPLACE INTO manifest (key, value) VALUES ('updatedAt', ?)").run(new Date().toISOString());
    })();
    this.dimensionCache = undefined;
  }

  /** Throws IndexMismatchError when the index was built by another model, dimension or revision. */
  assertCompatible(identity: EmbedderIdentity): void {
    const m = this.getManifest();
    if (m === null) return;
    if (m.model === identity.model && m.dimension === identity.dimension && m.revision === identity.revision) return;
    throw new IndexMismatchError(
      `${this.indexDir} was built with ${m.model} (${m.dimension}d, revision ${m.revision.slice(0, 12)}); ` +
        `embedder is ${identity.model} (${identity.dimension}d, revision ${identity.revision.slice(0, 12)}). ` +
        'Run: codescout index --rebuild',
      this.indexDir,
    );
  }

  /** Sets the manifest's updatedAt to now. */
  touch(): void {
    this.sql("INSERT OR REPLACE INTO manifest (key, value) VALUES ('updatedAt', ?)").run(new Date().toISOString());
  }

  /** The chunker version the last complete full pass chunked every file with (null: none recorded). */
  chunkerVersion(): string | null {
    const row = this.sql("SELECT value FROM manifest WHERE key = 'chunker'").get() as { value: string } | undefined;
    return row?.value ?? null;
  }

  /** Records the chunker version once a full pass has chunked every file with it. */
  setChunkerVersion(version: string): void {
    this.sql("INSERT OR REPLACE INTO manifest (key, value) VALUES ('chunker', ?)").run(version);
  }

  /** Counter bumped by every write transaction that changed chunks. */
  generation(): number {
    const row = this.sql("SELECT value FROM manifest WHERE key = 'generation'").get() as { value: string } | undefined;
    return Number(row?.value ?? 0);
  }

  /** Number of chunks, remembered per generation (`count(*)` reads the whole table; queries ask often). */
  chunkCount(): number {
    const generation = this.generation();
    if (this.chunkCountCache?.generation !== generation) {
      this.chunkCountCache = { generation, count: this.sql('SELECT count(*) FROM chunks').pluck().get() as number };
    }
    return this.chunkCountCache.count;
  }

  /** The indexed file at `path` (relative, POSIX), or undefined. */
  getFile(path: string): FileRow | undefined {
    const row = this.sql('SELECT * FROM files WHERE path = ?').get(path) as RawFile | undefined;
    return row === undefined ? undefined : toFileRow(row);
  }

  /** Every indexed file, ordered by path. */
  listFiles(): FileRow[] {
    return (this.sql('SELECT * FROM files ORDER BY path').all() as RawFile[]).map(toFileRow);
  }

  /** Records a new size and mtime for a file whose content hash did not change; no-op when not indexed. */
  touchFile(input: { readonly path: string; readonly size: number; readonly mtimeMs: number }): void {
    this.sql('UPDATE files SET size = ?, mtime_ms = ? WHERE path = ?').run(input.size, input.mtimeMs, input.path);
  }

  /**
   * Cached vectors for the given chunk hashes under `revision`, by hash; bumps their used_at unless readonly.
   * A cached vector that is not sound (not finite, not unit length, wrong length) is left out, so the caller
   * embeds that text again and its fresh vector replaces the damaged one.
   */
  cachedVectors(hashes: readonly string[], revision: string): Map<string, Float32Array> {
    const out = new Map<string, Float32Array>();
    if (hashes.length === 0) return out;
    const json = JSON.stringify([...new Set(hashes)]);
    const rows = this.sql(
      'SELECT text_hash, vector FROM embeddings WHERE revision = ? AND text_hash IN (SELECT value FROM json_each(?))',
    ).all(revision, json) as Array<{ text_hash: string; vector: Buffer }>;
    const dimension = this.dimension();
    for (const row of rows) {
      const vector = blobToVector(row.vector);
      if (vector !== null && isSoundVector(vector, dimension)) out.set(row.text_hash, vector);
    }
    if (!this.isReadonly && rows.length > 0) {
      this.sql('UPDATE embeddings SET used_at = ? WHERE revision = ? AND text_hash IN (SELECT value FROM json_each(?))')
        .run(Date.now(), revision, json);
    }
    return out;
  }

  /**
   * Replaces one file's row, chunks, FTS rows and new cache vectors in one transaction and bumps the
   * generation when chunks changed. Unchanged chunks keep their row ids; returns only removed and added rows.
   */
  replaceFile(input: ReplaceFileInput): ReplaceFileResult {
    return this.db.transaction(() => replaceFileRows(this.db, input, Date.now()))();
  }

  /** Removes files with their chunks and FTS rows in one transaction; returns the removed chunk row ids. */
  removeFiles(paths: readonly string[]): number[] {
    if (paths.length === 0) return [];
    return this.db.transaction(() => {
      const json = JSON.stringify(paths);
      const ids = (this.sql(
        'SELECT c.id FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.path IN (SELECT value FROM json_each(?))',
      ).all(json) as Array<{ id: number }>).map((r) => r.id);
      deleteChunkRows(this.db, ids);
      const removed = this.sql('DELETE FROM files WHERE path IN (SELECT value FROM json_each(?))').run(json);
      if (ids.length > 0 || removed.changes > 0) bumpGeneration(this.db);
      return ids;
    })();
  }

  /**
   * Removes every file, chunk and FTS row (the embedding cache stays) and bumps the generation: for --rebuild.
   * The full-text index is reset whole ('delete-all'), not row by row, so damage inside it goes too.
   */
  clear(): void {
    this.db.transaction(() => {
      this.db.exec("INSERT INTO chunks_fts (chunks_fts) VALUES ('delete-all'); DELETE FROM chunks; DELETE FROM files;");
      bumpGeneration(this.db);
    })();
  }

  /** SQLite's own `integrity_check` findings (b-trees, index entries); empty when sound. O(database size). */
  sqliteProblems(): string[] {
    return sqliteIntegrityProblems(this.db);
  }

  /** Rebuilds every index b-tree from its table (SQLite REINDEX): repairs damage confined to indexes. */
  reindex(): void {
    this.db.exec('REINDEX');
  }

  /** Row ids (of the embedding cache) of cached vectors that are not finite unit vectors of the index's dimension. */
  unsoundVectorRows(): number[] {
    return unsoundVectorRows(this.db, this.dimension());
  }

  /** Deletes cached vectors: rows of the embedding cache by id. Returns how many went. */
  dropCachedVectorRows(rowIds: readonly number[]): number {
    return deleteVectorRows(this.db, rowIds);
  }

  /** Deletes the cached vectors of the given text hashes under `revision`; returns how many went. */
  dropCachedVectors(hashes: readonly string[], revision: string): number {
    if (hashes.length === 0) return 0;
    return this.sql('DELETE FROM embeddings WHERE revision = ? AND text_hash IN (SELECT value FROM json_each(?))')
      .run(revision, JSON.stringify([...new Set(hashes)])).changes;
  }

  /**
   * Why the index was emptied after damage (kept until a full pass has rebuilt it), or null. Readers report it,
   * so an index that lost its content never passes for one with no match.
   */
  resetReason(): string | null {
    const row = this.sql("SELECT value FROM manifest WHERE key = 'resetReason'").get() as { value: string } | undefined;
    return row?.value ?? null;
  }

  /** Records that the index was emptied after damage, and why (see {@link resetReason}). */
  markReset(reason: string): void {
    this.sql("INSERT OR REPLACE INTO manifest (key, value) VALUES ('resetReason', ?)").run(reason);
  }

  /** Forgets the reset mark: a full pass has rebuilt the index. */
  clearReset(): void {
    this.sql("DELETE FROM manifest WHERE key = 'resetReason'").run();
  }

  /** The chunks with the given row ids, in the order asked; unknown ids are left out. */
  getChunks(rowIds: readonly number[]): ChunkRow[] {
    if (rowIds.length === 0) return [];
    const rows = this.sql(`${CHUNK_SELECT} WHERE c.id IN (SELECT value FROM json_each(?))`)
      .all(JSON.stringify(rowIds)) as RawChunk[];
    const byId = new Map(rows.map((r) => [r.id, toChunkRow(r)]));
    return rowIds.flatMap((id) => byId.get(id) ?? []);
  }

  /** Path of each of the given chunk rows (rows that no longer exist are left out). */
  rowPaths(rowIds: readonly number[]): Map<number, string> {
    return rowPaths(this.db, rowIds);
  }

  /** The chunk with row id `rowId`, or undefined. */
  getChunkByRowId(rowId: number): ChunkRow | undefined {
    const row = this.sql(`${CHUNK_SELECT} WHERE c.id = ?`).get(rowId) as RawChunk | undefined;
    return row === undefined ? undefined : toChunkRow(row);
  }

  /**
   * BM25 search over chunk text + lexical terms, path and symbol; best first, score higher = better.
   * Free text is turned into quoted OR-ed terms (never FTS syntax); no words -> [].
   * `accept` filters by path; matches are streamed until k are accepted.
   */
  lexicalSearch(
    query: string,
    options: { readonly k: number; readonly accept?: (path: string) => boolean; readonly wholeWordsOnly?: boolean; readonly maxTerms?: number },
  ): LexicalHit[] {
    return searchChunksFts(this.db, query, {
      ...options, totalChunks: this.chunkCount(), documentFrequencies: (words) => this.documentFrequencies(words),
    });
  }

  /**
   * Every live chunk that has a cached vector under `revision`, in row id order, read in batches.
   * Throws IndexCorruptError for a cached vector of the wrong length.
   */
  *allVectors(revision: string): Generator<{ rowId: number; vector: Float32Array }> {
    let after = 0;
    for (;;) {
      const rows = this.sql(
        `SELECT c.id, e.vector FROM chunks c JOIN embeddings e ON e.text_hash = c.text_hash AND e.revision = ?
         WHERE c.id > ? ORDER BY c.id LIMIT ${VECTOR_BATCH_ROWS}`,
      ).all(revision, after) as Array<{ id: number; vector: Buffer }>;
      for (const row of rows) yield { rowId: row.id, vector: this.decode(row.vector) };
      const last = rows.at(-1);
      if (last === undefined || rows.length < VECTOR_BATCH_ROWS) return;
      after = last.id;
    }
  }

  /** Cached vectors of the given live chunk rows under `revision`; rows without one are left out. */
  vectorsForRows(rowIds: readonly number[], revision: string): Array<{ rowId: number; vector: Float32Array }> {
    if (rowIds.length === 0) return [];
    const rows = this.sql(
      `SELECT c.id, e.vector FROM chunks c JOIN embeddings e ON e.text_hash = c.text_hash AND e.revision = ?
       WHERE c.id IN (SELECT value FROM json_each(?)) ORDER BY c.id`,
    ).all(revision, JSON.stringify(rowIds)) as Array<{ id: number; vector: Buffer }>;
    return rows.map((row) => ({ rowId: row.id, vector: this.decode(row.vector) }));
  }

  /**
   * Live chunks that have no cached vector under `revision` and are not queued for the embedder (should be none:
   * a chunk written before its vector is queued, see {@link pendingTexts}).
   */
  missingVectors(revision: string): Array<{ rowId: number; hash: string }> {
    const queued = this.hasQueue() ? 'AND NOT EXISTS (SELECT 1 FROM pending_texts p WHERE p.text_hash = c.text_hash)' : '';
    return this.sql(
      `SELECT c.id AS rowId, c.text_hash AS hash FROM chunks c
       WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.text_hash = c.text_hash AND e.revision = ?) ${queued} ORDER BY c.id`,
    ).all(revision) as Array<{ rowId: number; hash: string }>;
  }

  /** Up to `limit` texts waiting for their vectors (written to the index before them), oldest first. */
  pendingTexts(limit: number): Array<{ hash: string; embedText: string }> {
    return this.hasQueue() ? nextPendingTexts(this.db, limit) : [];
  }

  /**
   * Caches vectors of queued texts and dequeues them in one transaction (bumping the generation, so readers pick
   * the vectors up); returns the chunk rows that use them, for the vector index.
   */
  storePendingVectors(vectors: ReadonlyMap<string, Float32Array>, revision: string): Array<{ rowId: number; hash: string }> {
    if (vectors.size === 0) return [];
    return this.db.transaction(() => {
      const rows = storePendingVectors(this.db, vectors, revision, Date.now());
      bumpGeneration(this.db);
      return rows;
    })();
  }

  /** Drops queued texts no live chunk uses any more; returns how many. */
  dropUnusedPendingTexts(): number {
    return this.hasQueue() ? dropUnusedPendingTexts(this.db) : 0;
  }

  /** Row ids of the live chunks whose vectors are still being made. */
  waitingRowIds(): number[] {
    if (!this.hasQueue()) return [];
    return this.sql('SELECT c.id FROM chunks c WHERE EXISTS (SELECT 1 FROM pending_texts p WHERE p.text_hash = c.text_hash) ORDER BY c.id')
      .pluck().all() as number[];
  }

  /** Live chunks whose vectors are still being made: found by words only until then. */
  pendingChunkCount(): number {
    return this.hasQueue() ? pendingChunkCount(this.db) : 0;
  }

  private queueKnown: boolean | undefined;

  private hasQueue(): boolean {
    this.queueKnown ??= hasPendingTable(this.db);
    return this.queueKnown;
  }

  /** Row ids of every live chunk, ascending. */
  liveRowIds(): number[] {
    return this.sql('SELECT id FROM chunks ORDER BY id').pluck().all() as number[];
  }

  /** Highest chunk row id ever handed out (0 when none), including deleted rows. */
  maxRowId(): number {
    const seq = this.sql("SELECT seq FROM sqlite_sequence WHERE name = 'chunks'").pluck().get() as number | undefined;
    return seq ?? 0;
  }

  /**
   * Drops cache rows no live chunk uses under `revision` (or of another revision), keeping the
   * `keepUnreferenced` most recently used of them. Returns how many rows were deleted.
   */
  pruneEmbeddings(options: { readonly revision: string; readonly keepUnreferenced: number }): number {
    return this.sql(
      `DELETE FROM embeddings WHERE rowid IN (
         SELECT e.rowid FROM embeddings e
         WHERE NOT (e.revision = ? AND EXISTS (SELECT 1 FROM chunks c WHERE c.text_hash = e.text_hash))
         ORDER BY e.used_at DESC LIMIT -1 OFFSET ?)`,
    ).run(options.revision, Math.max(0, Math.floor(options.keepUnreferenced))).changes;
  }

  /** Counts of files, chunks and cached vectors, and the size of the database files in bytes. */
  stats(): CatalogStats {
    const count = (table: string): number => this.sql(`SELECT count(*) FROM ${table}`).pluck().get() as number;
    const path = catalogPath(this.indexDir);
    const dbBytes = [path, `${path}-wal`].reduce((sum, p) => sum + (statSync(p, { throwIfNoEntry: false })?.size ?? 0), 0);
    return { files: count('files'), chunks: count('chunks'), cachedVectors: count('embeddings'), dbBytes };
  }

  /** Runs SQLite, FTS and cross-table checks; returns the problems found (empty = healthy). */
  integrityCheck(): string[] {
    const revision = this.getManifest()?.revision;
    return checkCatalogIntegrity(this.db, {
      writable: !this.isReadonly,
      missingVectors: revision === undefined ? 0 : this.missingVectors(revision).length,
      unsoundVectors: this.unsoundVectorRows().length,
    });
  }

  /**
   * Document frequency (chunks containing it) of each lower-case word in the full-text index. Remembered per
   * generation: FTS5 counts a word's documents by reading its whole posting list, and queries share words.
   */
  documentFrequencies(words: readonly string[]): Map<string, number> {
    const generation = this.generation();
    if (this.dfCache.generation !== generation || this.dfCache.df.size > DF_CACHE_LIMIT) this.dfCache = { generation, df: new Map() };
    const { df } = this.dfCache;
    const missing = [...new Set(words.filter((w) => !df.has(w)))];
    if (missing.length > 0) for (const [w, n] of documentFrequencies(this.db, missing)) df.set(w, n);
    return new Map(words.map((w) => [w, df.get(w) ?? 0]));
  }

  /** Row ids of symbol chunks named one of `names` (definitions), at most `limit`. */
  findSymbolRowIds(names: readonly string[], limit = 50, options: { includeMethods?: boolean } = {}): number[] {
    return symbolRowIds(this.db, names, limit, options.includeMethods ?? false);
  }

  /** Paths of the files that define (top level, not as a method) each of `names`, from at most `limit` chunks. */
  symbolPaths(names: readonly string[], limit = 200): Map<string, string[]> {
    return symbolPaths(this.db, names, limit);
  }

  /** Closes the database (and removes the private copy a read-only location made it read); not usable afterwards. */
  close(): void {
    this.statements.clear();
    this.db.close();
    this.opened.snapshot?.dispose();
  }

  /** The recorded vector dimension, 0 before a model is recorded. */
  private dimension(): number {
    this.dimensionCache ??= Number(this.sql("SELECT value FROM manifest WHERE key = 'dimension'").pluck().get() ?? 0);
    return this.dimensionCache;
  }

  private decode(blob: Buffer): Float32Array {
    const vector = blobToVector(blob);
    const dimension = this.dimension();
    if (vector === null || (dimension > 0 && vector.length !== dimension)) {
      const path = catalogPath(this.indexDir);
      throw new IndexCorruptError(
        `Catalog ${path} holds a cached vector of ${blob.byteLength} bytes, expected ${dimension} floats. ` +
          'Rebuild the index: codescout index --rebuild',
        path,
      );
    }
    return vector;
  }
}

function toFileRow(r: RawFile): FileRow {
  return {
    path: r.path, size: r.size, mtimeMs: r.mtime_ms, contentHash: r.content_hash,
    language: r.language as Language, indexedAt: r.indexed_at,
  };
}

function toChunkRow(r: RawChunk): ChunkRow {
  return {
    rowId: r.id, chunkId: r.chunk_key, path: r.path, language: r.language as Language, kind: r.kind as ChunkKind,
    symbol: r.symbol, parent: r.parent, signature: r.signature, startLine: r.start_line, endLine: r.end_line,
    ...(r.part_index !== null && r.part_count !== null ? { part: { index: r.part_index, count: r.part_count } } : {}),
    hash: r.text_hash, text: r.text,
  };
}
