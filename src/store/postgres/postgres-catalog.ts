import type pg from 'pg';
import type { EmbedderIdentity } from '../../embed/embedder.js';
import { ConfigError, IndexMismatchError } from '../../errors.js';
import type { CatalogStats, ChunkRow, FileRow, LexicalHit, Manifest, ReplaceFileInput, ReplaceFileResult } from '../catalog-types.js';
import type { VectorHit } from '../vector-store.js';
import { isSoundVector } from '../vector-health.js';
import { filtersFrom, type IndexFilters } from '../../stored-filters.js';
import type { AsyncCatalog, LexicalSearchOptions } from '../catalog-port.js';
import { connectClient, inTransaction, openPool, sqlOver, toStoreError, type ConnectionSettings, type Sql } from './connection.js';
import { redactConnectionString } from './connection-string.js';
import { chunksByRowIds, countDocuments, pathsOfRows, symbolPaths, symbolRowIds, toFileRow, type RawFile } from './chunk-reads.js';
import { searchChunksLexical } from './lexical-search.js';
import { ADVISORY_LOCK_CLASS, assertSchemaCurrent, migrate } from './migrate.js';
import { LATEST_SCHEMA_VERSION } from './migrations/index.js';
import { checkNamespace } from './namespace-integrity.js';
import { bumpGeneration, replaceFileRows, storeVectors } from './replace-file.js';
import { StoreUnavailableError } from './store-unavailable-error.js';
import { chunksWithoutVectors, namespaceVectors, queuedTexts, rowVectors, waitingRows } from './vector-reads.js';
import { ensureVectorIndex, nearestChunks, parseVector } from './vector-search.js';
import { acquireWriterLock, releaseWriterLock, type WriterLockHolder } from './writer-lock.js';

/** Settings kept in a namespace's row beside its manifest, read and written one at a time. */
type NamespaceSetting = 'base_ref' | 'chunker' | 'globs';

/** The end of the message of a reader's open of a namespace nobody has built (see {@link isMissingNamespace}). */
const NO_NAMESPACE_HINT = 'Build it first: codescout index --store ...';

/** True for the error of a reader's open of a namespace nobody has built. */
export function isMissingNamespace(error: unknown): error is ConfigError {
  return error instanceof ConfigError && error.message.endsWith(NO_NAMESPACE_HINT);
}

/** How to open a {@link PostgresCatalog}. */
export interface PostgresCatalogOptions extends ConnectionSettings {
  /** The namespace: a repository id (e.g. `github.com/acme/shop`) and a ref (`main`, a branch). */
  readonly repo: string;
  readonly ref: string;
  /** `write` migrates the schema, creates the namespace and takes its writer lock; `read` does none of that. */
  readonly mode: 'write' | 'read';
  /** How long a writer waits for another writer of the namespace to let go of its lock, in ms (default 0: fail at once). */
  readonly lockWaitMs?: number;
}

interface NamespaceRow {
  model: string | null; dimension: number | null; revision: string | null; root: string | null;
  generation: number; reset_reason: string | null; created_at: Date; updated_at: Date;
}

/**
 * The catalog of one namespace `(repo, ref)` in a PostgreSQL database with pgvector: the {@link AsyncCatalog} port
 * plus nearest-neighbour search, since the vectors live in the same database. Many namespaces share one database
 * and one embedding cache. Readers use a small pool; a writer also holds one connection with the namespace's
 * advisory lock, and every write runs on it, so a writer whose connection drops can no longer write.
 */
export class PostgresCatalog implements AsyncCatalog {
  readonly schemaVersion = LATEST_SCHEMA_VERSION;
  private closed = false;
  private lostWriter: Error | undefined;
  /** The last use of the writer's connection, which the next one waits for (see serially). */
  private writerTail: Promise<void> = Promise.resolve();
  private sizeCache: { generation: number; count: number; averageTokens: number } | undefined;
  private dfCache: { generation: number; df: Map<string, number> } = { generation: -1, df: new Map() };

  private constructor(
    private readonly settings: PostgresCatalogOptions,
    private readonly pool: pg.Pool,
    private readonly writerClient: pg.Client | undefined,
    readonly namespaceId: number,
    /** The lock this writer holds; undefined for readers. */
    readonly lockHolder: WriterLockHolder | undefined,
  ) {
    writerClient?.on('error', (error) => (this.lostWriter = error));
    writerClient?.on('end', () => (this.lostWriter ??= new Error('Connection terminated')));
  }

  /**
   * Opens the namespace. Writers migrate the schema, create the namespace if new and take its writer lock; readers
   * check the schema and find the namespace. Every connection opened is closed again when the open fails. Throws
   * StoreUnavailableError (unreachable, auth, TLS), IndexLockedError (another writer still holds the lock after
   * `lockWaitMs`, named), IndexMismatchError (other schema) and ConfigError (a reader's namespace does not exist).
   * @example const catalog = await PostgresCatalog.open({ connectionString, repo: 'acme/shop', ref: 'main', mode: 'read' });
   */
  static async open(options: PostgresCatalogOptions): Promise<PostgresCatalog> {
    const pool = openPool(options);
    const sql = sqlOver(pool, options.connectionString);
    let writer: pg.Client | undefined;
    try {
      if (options.mode === 'read') {
        await assertSchemaCurrent(sql, options.connectionString);
        const [row] = await sql.rows<{ id: number }>('SELECT id FROM namespaces WHERE repo = $1 AND ref = $2', [options.repo, options.ref]);
        if (row === undefined) {
          throw new ConfigError(`PostgreSQL at ${redactConnectionString(options.connectionString)} has no index of ${options.repo}@${options.ref}. ${NO_NAMESPACE_HINT}`, 'store');
        }
        return new PostgresCatalog(options, pool, undefined, row.id, undefined);
      }
      writer = await connectClient(options);
      await migrate(writer, options.connectionString);
      const writerSql = sqlOver(writer, options.connectionString);
      const [row] = await writerSql.rows<{ id: number }>(
        `INSERT INTO namespaces (repo, ref) VALUES ($1, $2) ON CONFLICT (repo, ref) DO UPDATE SET repo = excluded.repo RETURNING id`,
        [options.repo, options.ref],
      );
      const holder = await acquireWriterLock(writerSql, { namespaceId: row!.id, label: labelOf(options), waitMs: options.lockWaitMs });
      return new PostgresCatalog(options, pool, writer, row!.id, holder);
    } catch (error) {
      await writer?.end().catch(() => undefined);
      await pool.end().catch(() => undefined);
      throw toStoreError(error, options.connectionString);
    }
  }

  /** `repo@ref on <connection string, password redacted>`. */
  get label(): string {
    return labelOf(this.settings);
  }

  private get read(): Sql {
    if (this.closed) throw new ConfigError(`The catalog of ${this.label} is closed.`);
    return sqlOver(this.pool, this.settings.connectionString);
  }

  /**
   * The writer's connection, one statement or transaction at a time (see {@link serially}); throws ConfigError for
   * readers and StoreUnavailableError once the lock's connection is gone.
   */
  private get write(): Sql {
    const sql = sqlOver(this.writable(), this.settings.connectionString);
    return {
      rows: (text, values) => this.serially(() => sql.rows(text, values)),
      count: (text, values) => this.serially(() => sql.count(text, values)),
    };
  }

  /**
   * Runs `fn` after every earlier use of the writer's connection has settled. The writer lock lives on that one
   * connection, so every write goes through it; callers above may overlap their calls, and a statement sent while
   * another call's transaction is open would run inside it (or its BEGIN inside that one).
   */
  private serially<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.writerTail.then(fn, fn);
    this.writerTail = run.then(() => undefined, () => undefined);
    return run;
  }

  private writable(): pg.Client {
    if (this.closed) throw new ConfigError(`The catalog of ${this.label} is closed.`);
    if (this.writerClient === undefined) throw new ConfigError(`The catalog of ${this.label} was opened for reading; writes need mode 'write'.`);
    if (this.lostWriter !== undefined) {
      const target = redactConnectionString(this.settings.connectionString);
      throw new StoreUnavailableError(`PostgreSQL at ${target} dropped the writer's connection, and with it the writer lock of ${this.settings.repo}@${this.settings.ref}. Run the command again.`, target, 'lost', { cause: this.lostWriter });
    }
    return this.writerClient;
  }

  private transaction<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    const client = this.writable();
    return this.serially(() => inTransaction(client, this.settings.connectionString, fn));
  }

  private async namespace(): Promise<NamespaceRow> {
    const [row] = await this.read.rows<NamespaceRow>(
      'SELECT model, dimension, revision, root, generation, reset_reason, created_at, updated_at FROM namespaces WHERE id = $1', [this.namespaceId],
    );
    if (row === undefined) throw new ConfigError(`The namespace ${this.label} was deleted while open.`, 'store');
    return row;
  }

  async getManifest(): Promise<Manifest | null> {
    const n = await this.namespace();
    if (n.model === null) return null;
    return {
      schemaVersion: LATEST_SCHEMA_VERSION, model: n.model, dimension: n.dimension ?? 0, revision: n.revision ?? '', root: n.root ?? '',
      createdAt: n.created_at.toISOString(), updatedAt: n.updated_at.toISOString(), generation: n.generation,
    };
  }

  /** Records the embedder identity and root, and creates the HNSW index for its dimension if the database lacks it. */
  async initManifest(input: EmbedderIdentity & { readonly root: string }): Promise<void> {
    await this.transaction(async (sql) => {
      // The migration lock serialises the index DDL of writers of different namespaces starting at once.
      await sql.count('SELECT pg_advisory_xact_lock($1, 0)', [ADVISORY_LOCK_CLASS]);
      await ensureVectorIndex(sql, input.dimension);
      await sql.count('UPDATE namespaces SET model = $2, dimension = $3, revision = $4, root = $5, updated_at = now() WHERE id = $1',
        [this.namespaceId, input.model, input.dimension, input.revision, input.root]);
    });
  }

  /** The ref of the namespace this one is a branch of (it then holds only what differs from it), or null. */
  async baseRef(): Promise<string | null> {
    return this.namespaceValue<string>('base_ref');
  }

  /** Records the namespace this one is a branch of (null: a whole index); a writer's, with the namespace emptied first. */
  async setBaseRef(ref: string | null): Promise<void> {
    await this.setNamespaceValue('base_ref', ref);
  }

  async chunkerVersion(): Promise<string | null> {
    return this.namespaceValue<string>('chunker');
  }

  async setChunkerVersion(version: string): Promise<void> {
    await this.setNamespaceValue('chunker', version);
  }

  /** The globs the namespace was indexed with (null: none given, or none recorded by an older codescout). */
  async globs(): Promise<IndexFilters | null> {
    const value = await this.namespaceValue<unknown>('globs');
    return value === null ? null : filtersFrom(value);
  }

  /** Records the globs the writer indexes the namespace with (null: none). */
  async setGlobs(filters: IndexFilters | null): Promise<void> {
    await this.setNamespaceValue('globs', filters === null ? null : JSON.stringify({ include: filters.include, exclude: filters.exclude }));
  }

  /** One setting kept in this namespace's row (null when unset). */
  private async namespaceValue<T>(column: NamespaceSetting): Promise<T | null> {
    const [row] = await this.read.rows<{ value: T | null }>(`SELECT ${column} AS value FROM namespaces WHERE id = $1`, [this.namespaceId]);
    return row?.value ?? null;
  }

  /** Sets one setting of this namespace's row (a writer's); `globs` is stored as jsonb. */
  private async setNamespaceValue(column: NamespaceSetting, value: string | null): Promise<void> {
    const cast = column === 'globs' ? '::jsonb' : '';
    await this.write.count(`UPDATE namespaces SET ${column} = $2${cast}, updated_at = now() WHERE id = $1`, [this.namespaceId, value]);
  }

  async resetManifest(): Promise<void> {
    await this.write.count('UPDATE namespaces SET model = NULL, dimension = NULL, revision = NULL, root = NULL, updated_at = now() WHERE id = $1', [this.namespaceId]);
  }

  async assertCompatible(identity: EmbedderIdentity): Promise<void> {
    const m = await this.getManifest();
    if (m === null || (m.model === identity.model && m.dimension === identity.dimension && m.revision === identity.revision)) return;
    throw new IndexMismatchError(
      `${this.label} was built with ${m.model} (${m.dimension}d, revision ${m.revision.slice(0, 12)}); ` +
        `embedder is ${identity.model} (${identity.dimension}d, revision ${identity.revision.slice(0, 12)}). Run: codescout index --rebuild`,
      this.label,
    );
  }

  async touch(): Promise<void> {
    await this.write.count('UPDATE namespaces SET updated_at = now() WHERE id = $1', [this.namespaceId]);
  }

  async generation(): Promise<number> {
    const [row] = await this.read.rows<{ generation: number }>('SELECT generation FROM namespaces WHERE id = $1', [this.namespaceId]);
    return row?.generation ?? 0;
  }

  /** Chunk count and average lexical row length, remembered per generation. */
  private async size(): Promise<{ count: number; averageTokens: number }> {
    const generation = await this.generation();
    if (this.sizeCache?.generation !== generation) {
      const [row] = await this.read.rows<{ count: number; average: number | null }>(
        'SELECT count(*) AS count, avg(term_count)::float8 AS average FROM chunks WHERE namespace_id = $1', [this.namespaceId],
      );
      this.sizeCache = { generation, count: row?.count ?? 0, averageTokens: row?.average ?? 0 };
    }
    return this.sizeCache;
  }

  async chunkCount(): Promise<number> {
    return (await this.size()).count;
  }

  async getFile(path: string): Promise<FileRow | undefined> {
    const [row] = await this.read.rows<RawFile>('SELECT * FROM files WHERE namespace_id = $1 AND path = $2', [this.namespaceId, path]);
    return row === undefined ? undefined : toFileRow(row);
  }

  async listFiles(): Promise<FileRow[]> {
    return (await this.read.rows<RawFile>('SELECT * FROM files WHERE namespace_id = $1 ORDER BY path COLLATE "C"', [this.namespaceId])).map(toFileRow);
  }

  async touchFile(input: { readonly path: string; readonly size: number; readonly mtimeMs: number }): Promise<void> {
    await this.write.count('UPDATE files SET size = $3, mtime_ms = $4 WHERE namespace_id = $1 AND path = $2', [this.namespaceId, input.path, input.size, input.mtimeMs]);
  }

  async cachedVectors(hashes: readonly string[], revision: string): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    const distinct = [...new Set(hashes)];
    if (distinct.length === 0) return out;
    const rows = await this.read.rows<{ text_hash: string; vector: string }>(
      'SELECT text_hash, vector::text AS vector FROM embeddings WHERE revision = $1 AND text_hash = ANY($2::text[])', [revision, distinct],
    );
    const dimension = (await this.getManifest())?.dimension;
    for (const row of rows) {
      const vector = parseVector(row.vector);
      if (isSoundVector(vector, dimension)) out.set(row.text_hash, vector);
    }
    if (this.writerClient !== undefined && rows.length > 0) {
      await this.write.count('UPDATE embeddings SET used_at = $1 WHERE revision = $2 AND text_hash = ANY($3::text[])', [Date.now(), revision, rows.map((r) => r.text_hash)]);
    }
    return out;
  }

  async replaceFile(input: ReplaceFileInput): Promise<ReplaceFileResult> {
    return this.transaction((sql) => replaceFileRows(sql, this.namespaceId, input, Date.now()));
  }

  async removeFiles(paths: readonly string[]): Promise<number[]> {
    if (paths.length === 0) return [];
    return this.transaction(async (sql) => {
      const ids = (await sql.rows<{ id: number }>(
        'SELECT c.id FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.namespace_id = $1 AND f.path = ANY($2::text[]) ORDER BY c.id',
        [this.namespaceId, [...paths]],
      )).map((r) => r.id);
      // Chunks go with their files (ON DELETE CASCADE).
      const removed = await sql.count('DELETE FROM files WHERE namespace_id = $1 AND path = ANY($2::text[])', [this.namespaceId, [...paths]]);
      if (ids.length > 0 || removed > 0) await bumpGeneration(sql, this.namespaceId);
      return ids;
    });
  }

  async clear(): Promise<void> {
    await this.transaction(async (sql) => {
      await sql.count('DELETE FROM files WHERE namespace_id = $1', [this.namespaceId]);
      await bumpGeneration(sql, this.namespaceId);
    });
  }

  async dropCachedVectors(hashes: readonly string[], revision: string): Promise<number> {
    if (hashes.length === 0) return 0;
    return this.write.count('DELETE FROM embeddings WHERE revision = $1 AND text_hash = ANY($2::text[])', [revision, [...new Set(hashes)]]);
  }

  /**
   * The cache is shared: a row stays while a chunk of any namespace uses it under that namespace's revision; of the
   * rest, the `keepUnreferenced` most recently used stay. `revision` is this namespace's (kept for the port).
   */
  async pruneEmbeddings(options: { readonly revision: string; readonly keepUnreferenced: number }): Promise<number> {
    return this.write.count(
      `DELETE FROM embeddings WHERE (text_hash, revision) IN (
         SELECT e.text_hash, e.revision FROM embeddings e
         WHERE NOT EXISTS (SELECT 1 FROM chunks c JOIN namespaces n ON n.id = c.namespace_id
                           WHERE c.text_hash = e.text_hash AND (n.revision = e.revision OR (n.id = $2 AND e.revision = $3)))
         ORDER BY e.used_at DESC OFFSET $1)`,
      [Math.max(0, Math.floor(options.keepUnreferenced)), this.namespaceId, options.revision],
    );
  }

  async resetReason(): Promise<string | null> {
    return (await this.namespace()).reset_reason;
  }

  async markReset(reason: string): Promise<void> {
    await this.write.count('UPDATE namespaces SET reset_reason = $2 WHERE id = $1', [this.namespaceId, reason]);
  }

  async clearReset(): Promise<void> {
    await this.write.count('UPDATE namespaces SET reset_reason = NULL WHERE id = $1', [this.namespaceId]);
  }

  async getChunks(rowIds: readonly number[]): Promise<ChunkRow[]> {
    return chunksByRowIds(this.read, this.namespaceId, rowIds);
  }

  async rowPaths(rowIds: readonly number[]): Promise<Map<number, string>> {
    return pathsOfRows(this.read, this.namespaceId, rowIds);
  }

  async getChunkByRowId(rowId: number): Promise<ChunkRow | undefined> {
    return (await chunksByRowIds(this.read, this.namespaceId, [rowId]))[0];
  }

  async lexicalSearch(query: string, options: LexicalSearchOptions): Promise<LexicalHit[]> {
    const size = await this.size();
    return searchChunksLexical(this.read, query, options, {
      namespaceId: this.namespaceId, totalChunks: size.count, averageTokens: size.averageTokens,
      documentFrequencies: (words) => this.documentFrequencies(words),
      rowPaths: (rowIds) => this.rowPaths(rowIds),
    });
  }

  /** Document frequencies in this namespace, remembered per generation (queries share words). */
  async documentFrequencies(words: readonly string[]): Promise<Map<string, number>> {
    const generation = await this.generation();
    if (this.dfCache.generation !== generation) this.dfCache = { generation, df: new Map() };
    const { df } = this.dfCache;
    const missing = words.filter((w) => !df.has(w));
    if (missing.length > 0) for (const [w, n] of await countDocuments(this.read, this.namespaceId, missing)) df.set(w, n);
    return new Map(words.map((w) => [w, df.get(w) ?? 0]));
  }

  async findSymbolRowIds(names: readonly string[], limit = 50, options: { includeMethods?: boolean } = {}): Promise<number[]> {
    return symbolRowIds(this.read, this.namespaceId, names, limit, options.includeMethods ?? false);
  }

  async symbolPaths(names: readonly string[], limit = 200): Promise<Map<string, string[]>> {
    return symbolPaths(this.read, this.namespaceId, names, limit);
  }

  /**
   * The k chunks of this namespace nearest to `vector` (cosine, through pgvector's HNSW index), nearest first, under
   * the manifest's revision. Empty before a model is recorded.
   */
  async nearestChunks(vector: Float32Array, options: { readonly k: number; readonly accept?: (rowId: number) => boolean }): Promise<VectorHit[]> {
    const manifest = await this.getManifest();
    if (manifest === null) return [];
    return nearestChunks(this.pool, vector, {
      ...options, namespaceId: this.namespaceId, dimension: manifest.dimension, revision: manifest.revision,
      connectionString: this.settings.connectionString,
    });
  }

  async *allVectors(revision: string): AsyncGenerator<{ rowId: number; vector: Float32Array }> {
    yield* namespaceVectors(this.read, this.namespaceId, revision);
  }

  async vectorsForRows(rowIds: readonly number[], revision: string): Promise<Array<{ rowId: number; vector: Float32Array }>> {
    return rowVectors(this.read, this.namespaceId, rowIds, revision);
  }

  async missingVectors(revision: string): Promise<Array<{ rowId: number; hash: string }>> {
    return chunksWithoutVectors(this.read, this.namespaceId, revision);
  }

  async pendingTexts(limit: number): Promise<Array<{ hash: string; embedText: string }>> {
    return queuedTexts(this.read, this.namespaceId, limit);
  }

  async storePendingVectors(vectors: ReadonlyMap<string, Float32Array>, revision: string): Promise<Array<{ rowId: number; hash: string }>> {
    if (vectors.size === 0) return [];
    return this.transaction(async (sql) => {
      await storeVectors(sql, vectors, revision, Date.now());
      const hashes = [...vectors.keys()];
      await sql.count('DELETE FROM pending_texts WHERE text_hash = ANY($1::text[])', [hashes]);
      await bumpGeneration(sql, this.namespaceId);
      return sql.rows<{ rowId: number; hash: string }>(
        'SELECT id AS "rowId", text_hash AS hash FROM chunks WHERE namespace_id = $1 AND text_hash = ANY($2::text[]) ORDER BY id', [this.namespaceId, hashes],
      );
    });
  }

  /** Queued texts no chunk of any namespace uses (the queue is shared like the cache). */
  async dropUnusedPendingTexts(): Promise<number> {
    return this.write.count('DELETE FROM pending_texts p WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.text_hash = p.text_hash)');
  }

  async waitingRowIds(): Promise<number[]> {
    return waitingRows(this.read, this.namespaceId);
  }

  async pendingChunkCount(): Promise<number> {
    const [row] = await this.read.rows<{ n: number }>(
      'SELECT count(*) AS n FROM chunks c WHERE c.namespace_id = $1 AND EXISTS (SELECT 1 FROM pending_texts p WHERE p.text_hash = c.text_hash)', [this.namespaceId],
    );
    return row?.n ?? 0;
  }

  async liveRowIds(): Promise<number[]> {
    return (await this.read.rows<{ id: number }>('SELECT id FROM chunks WHERE namespace_id = $1 ORDER BY id', [this.namespaceId])).map((r) => r.id);
  }

  /** The chunk id sequence's last value: ids are unique across the whole database, never reused. */
  async maxRowId(): Promise<number> {
    const [row] = await this.read.rows<{ n: number | null }>("SELECT pg_sequence_last_value('chunks_id_seq') AS n");
    return row?.n ?? 0;
  }

  /** Files and chunks of this namespace; cachedVectors and dbBytes are the whole database's (the cache is shared). */
  async stats(): Promise<CatalogStats> {
    const [row] = await this.read.rows<{ files: number; chunks: number; vectors: number; bytes: number }>(
      `SELECT (SELECT count(*) FROM files WHERE namespace_id = $1) AS files, (SELECT count(*) FROM chunks WHERE namespace_id = $1) AS chunks,
              (SELECT count(*) FROM embeddings) AS vectors, pg_database_size(current_database()) AS bytes`, [this.namespaceId],
    );
    return { files: row!.files, chunks: row!.chunks, cachedVectors: row!.vectors, dbBytes: row!.bytes };
  }

  async integrityCheck(): Promise<string[]> {
    const manifest = await this.getManifest();
    return checkNamespace(this.read, { namespaceId: this.namespaceId, label: this.label, manifest, connectionString: this.settings.connectionString });
  }

  /** Frees the writer lock (a writer), ends every connection. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.writerClient !== undefined) {
      if (this.lostWriter === undefined) {
        // Ending the connection frees the advisory lock anyway; releasing first also removes the holder row.
        await releaseWriterLock(sqlOver(this.writerClient, this.settings.connectionString), this.namespaceId).catch(() => undefined);
      }
      await this.writerClient.end().catch(() => undefined);
    }
    await this.pool.end();
  }
}

function labelOf(options: PostgresCatalogOptions): string {
  return `${options.repo}@${options.ref} on ${redactConnectionString(options.connectionString)}`;
}
