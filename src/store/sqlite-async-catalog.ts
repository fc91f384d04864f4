import type { EmbedderIdentity } from '../embed/embedder.js';
import type { Catalog } from './catalog.js';
import type { AsyncCatalog, LexicalSearchOptions } from './catalog-port.js';
import type {
  CatalogStats, ChunkRow, FileRow, LexicalHit, Manifest, ReplaceFileInput, ReplaceFileResult,
} from './catalog-types.js';
import { SCHEMA_VERSION } from './schema.js';

/**
 * The SQLite catalog behind the {@link AsyncCatalog} port. better-sqlite3 stays synchronous underneath: each method
 * runs one synchronous call and hands back its result (or its error) as a promise, so a caller sees SQLite and
 * PostgreSQL alike. SQLite maintenance (REINDEX, cache rows by rowid, quarantine) goes to {@link sqlite} directly.
 */
export class SqliteAsyncCatalog implements AsyncCatalog {
  readonly schemaVersion = SCHEMA_VERSION;

  constructor(
    /** The synchronous catalog, for the SQLite-only maintenance of the store's own openers and repairs. */
    readonly sqlite: Catalog,
  ) {}

  async getManifest(): Promise<Manifest | null> {
    return this.sqlite.getManifest();
  }

  async initManifest(input: EmbedderIdentity & { readonly root: string }): Promise<void> {
    this.sqlite.initManifest(input);
  }

  async resetManifest(): Promise<void> {
    this.sqlite.resetManifest();
  }

  async assertCompatible(identity: EmbedderIdentity): Promise<void> {
    this.sqlite.assertCompatible(identity);
  }

  async touch(): Promise<void> {
    this.sqlite.touch();
  }

  async chunkerVersion(): Promise<string | null> {
    return this.sqlite.chunkerVersion();
  }

  async setChunkerVersion(version: string): Promise<void> {
    this.sqlite.setChunkerVersion(version);
  }

  async generation(): Promise<number> {
    return this.sqlite.generation();
  }

  async chunkCount(): Promise<number> {
    return this.sqlite.chunkCount();
  }

  async getFile(path: string): Promise<FileRow | undefined> {
    return this.sqlite.getFile(path);
  }

  async listFiles(): Promise<FileRow[]> {
    return this.sqlite.listFiles();
  }

  async touchFile(input: { readonly path: string; readonly size: number; readonly mtimeMs: number }): Promise<void> {
    this.sqlite.touchFile(input);
  }

  async cachedVectors(hashes: readonly string[], revision: string): Promise<Map<string, Float32Array>> {
    return this.sqlite.cachedVectors(hashes, revision);
  }

  async replaceFile(input: ReplaceFileInput): Promise<ReplaceFileResult> {
    return this.sqlite.replaceFile(input);
  }

  async removeFiles(paths: readonly string[]): Promise<number[]> {
    return this.sqlite.removeFiles(paths);
  }

  async clear(): Promise<void> {
    this.sqlite.clear();
  }

  async dropCachedVectors(hashes: readonly string[], revision: string): Promise<number> {
    return this.sqlite.dropCachedVectors(hashes, revision);
  }

  async pruneEmbeddings(options: { readonly revision: string; readonly keepUnreferenced: number }): Promise<number> {
    return this.sqlite.pruneEmbeddings(options);
  }

  async resetReason(): Promise<string | null> {
    return this.sqlite.resetReason();
  }

  async markReset(reason: string): Promise<void> {
    this.sqlite.markReset(reason);
  }

  async clearReset(): Promise<void> {
    this.sqlite.clearReset();
  }

  async getChunks(rowIds: readonly number[]): Promise<ChunkRow[]> {
    return this.sqlite.getChunks(rowIds);
  }

  async rowPaths(rowIds: readonly number[]): Promise<Map<number, string>> {
    return this.sqlite.rowPaths(rowIds);
  }

  async getChunkByRowId(rowId: number): Promise<ChunkRow | undefined> {
    return this.sqlite.getChunkByRowId(rowId);
  }

  async lexicalSearch(query: string, options: LexicalSearchOptions): Promise<LexicalHit[]> {
    return this.sqlite.lexicalSearch(query, options);
  }

  async documentFrequencies(words: readonly string[]): Promise<Map<string, number>> {
    return this.sqlite.documentFrequencies(words);
  }

  async findSymbolRowIds(names: readonly string[], limit?: number, options?: { includeMethods?: boolean }): Promise<number[]> {
    return this.sqlite.findSymbolRowIds(names, limit, options);
  }

  async symbolPaths(names: readonly string[], limit?: number): Promise<Map<string, string[]>> {
    return this.sqlite.symbolPaths(names, limit);
  }

  /** Batches of the synchronous reader, handed on between turns of the caller's loop. */
  async *allVectors(revision: string): AsyncGenerator<{ rowId: number; vector: Float32Array }> {
    yield* this.sqlite.allVectors(revision);
  }

  async vectorsForRows(rowIds: readonly number[], revision: string): Promise<Array<{ rowId: number; vector: Float32Array }>> {
    return this.sqlite.vectorsForRows(rowIds, revision);
  }

  async missingVectors(revision: string): Promise<Array<{ rowId: number; hash: string }>> {
    return this.sqlite.missingVectors(revision);
  }

  async pendingTexts(limit: number): Promise<Array<{ hash: string; embedText: string }>> {
    return this.sqlite.pendingTexts(limit);
  }

  async storePendingVectors(vectors: ReadonlyMap<string, Float32Array>, revision: string): Promise<Array<{ rowId: number; hash: string }>> {
    return this.sqlite.storePendingVectors(vectors, revision);
  }

  async dropUnusedPendingTexts(): Promise<number> {
    return this.sqlite.dropUnusedPendingTexts();
  }

  async waitingRowIds(): Promise<number[]> {
    return this.sqlite.waitingRowIds();
  }

  async pendingChunkCount(): Promise<number> {
    return this.sqlite.pendingChunkCount();
  }

  async liveRowIds(): Promise<number[]> {
    return this.sqlite.liveRowIds();
  }

  async maxRowId(): Promise<number> {
    return this.sqlite.maxRowId();
  }

  async stats(): Promise<CatalogStats> {
    return this.sqlite.stats();
  }

  async integrityCheck(): Promise<string[]> {
    return this.sqlite.integrityCheck();
  }

  async close(): Promise<void> {
    this.sqlite.close();
  }
}
