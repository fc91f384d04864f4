import { createHash } from 'node:crypto';
import type { Chunker } from '../chunk/chunker.js';
import { decodeSource } from '../chunk/decode-source.js';
import { readInsideRoot } from '../discover/open-regular-file.js';
import type { SecretPolicy } from '../discover/secret-policy.js';
import type { Embedder } from '../embed/embedder.js';
import { AbortError } from '../errors.js';
import type { AsyncCatalog } from '../store/catalog-port.js';
import type { FileRow } from '../store/catalog-types.js';
import type { VectorStore } from '../store/vector-store.js';
import type { Chunk, SourceFile } from '../types.js';
import { lexicalTermsFor } from './lexical-terms.js';
import { PassCounters, type ProgressListener } from './update-report.js';

/** Chunks to collect before one commit of chunks (searchable by words from then on): bounds memory and lost work. */
const CHUNKS_PER_COMMIT = 256;
/** Texts handed to the embedder at once by the filler; their vectors are committed together. */
const TEXTS_PER_EMBED = 256;
/** Files in one pass from which the catalog's file rows are read in one list rather than one look-up per file. */
const LIST_FILES_FROM = 32;

/** A file read, hashed and chunked, waiting for its vectors. */
interface PreparedFile {
  readonly file: SourceFile;
  readonly contentHash: string;
  readonly chunks: Chunk[];
}

/** What the indexer needs; the caller (CodeIndex) owns them and holds the write lock. */
export interface IndexerDeps {
  readonly catalog: AsyncCatalog;
  readonly vectors: VectorStore;
  readonly chunker: Chunker;
  readonly embedder: () => Promise<Embedder>;
  /** The root with every symlink resolved: no file whose real path leaves it is read. */
  readonly realRoot: string;
  /** Checked again on the exact text stored, not only at discovery: a file may gain a secret between the two reads. */
  readonly secrets?: SecretPolicy;
}

/**
 * Applies files to the index through the incremental path: size+mtime unchanged -> skip; content hash
 * unchanged -> touch; else chunk and commit the chunks with the vectors the cache already has, so the file is
 * searchable by words at once. Texts without a cached vector wait in the catalog's queue, and are embedded in
 * batches once every file is committed, their vectors committed as they come. Identical text is embedded once.
 * Progress is recorded only by the commit that makes it true, so a crash never claims lost work, and a queue left
 * by an interrupted run is embedded by the next one.
 */
export class Indexer {
  constructor(private readonly deps: IndexerDeps) {}

  /** Indexes (or re-checks) the given files, then embeds every queued text; `counters` accumulates what happened. */
  async indexFiles(options: {
    files: readonly SourceFile[];
    counters: PassCounters;
    onProgress?: ProgressListener;
    signal?: AbortSignal;
    /** Chunk every file again, unchanged ones too (the index was chunked by another chunker version). */
    rechunk?: boolean;
  }): Promise<void> {
    const { files, counters, onProgress, signal } = options;
    const progress = { filesDone: 0, chunksQueued: 0 };
    const report = (): void =>
      onProgress?.({
        phase: 'index', filesDone: progress.filesDone, filesTotal: files.length, chunksEmbedded: counters.embedded,
        textsWaiting: Math.max(0, progress.chunksQueued - counters.embedded),
      });
    // Grammars that load asynchronously (WASM) are loaded before the first file is chunked.
    await this.deps.chunker.prepare?.([...new Set(files.map((f) => f.language))]);
    // Words first: inference holds the event loop for each forward pass (measured: one timer turn per text), so
    // embedding beside the chunking would slow the chunking to the embedder's pace. Every file is committed —
    // searchable by words within the chunker's time — and then the queue is embedded.
    await this.chunkFiles({ files, counters, progress, report, signal, rechunk: options.rechunk ?? false });
    await this.fillVectors({ counters, progress, report, signal });
    await this.deps.catalog.dropUnusedPendingTexts();
    report();
  }

  /** Reads, chunks and commits files (with the vectors the cache has). */
  private async chunkFiles(o: {
    files: readonly SourceFile[];
    counters: PassCounters;
    progress: { filesDone: number; chunksQueued: number };
    report: () => void;
    signal?: AbortSignal;
    rechunk: boolean;
  }): Promise<void> {
    let pending: PreparedFile[] = [];
    let pendingChunks = 0;
    // A pass over many files reads the catalog's file rows at once: one round trip, not one per file (a database
    // server's latency counts per file otherwise). A few files (a watcher's batch) are looked up one by one.
    const rows = o.files.length >= LIST_FILES_FROM ? new Map((await this.deps.catalog.listFiles()).map((f) => [f.path, f])) : undefined;
    const flush = async (): Promise<void> => {
      o.progress.chunksQueued += await this.commitChunks(pending, o.counters);
      pending = [];
      pendingChunks = 0;
      o.report();
    };
    for (const file of o.files) {
      if (o.signal?.aborted) throw new AbortError('Indexing aborted; everything committed so far is kept.');
      const prepared = await this.prepare(file, o.counters, { rows, rechunk: o.rechunk });
      o.progress.filesDone++;
      if (prepared) {
        pending.push(prepared);
        pendingChunks += prepared.chunks.length;
      }
      if (pendingChunks >= CHUNKS_PER_COMMIT) await flush();
      else if (o.progress.filesDone % 50 === 0) o.report();
    }
    if (pending.length > 0) await flush();
  }

  /** Embeds queued texts in batches and commits their vectors until the queue is empty (an interrupted run's too). */
  private async fillVectors(o: {
    counters: PassCounters;
    progress: { filesDone: number; chunksQueued: number };
    report: () => void;
    signal?: AbortSignal;
  }): Promise<void> {
    const { catalog, vectors } = this.deps;
    for (;;) {
      if (o.signal?.aborted) throw new AbortError('Indexing aborted; everything committed so far is kept.');
      const batch = await catalog.pendingTexts(TEXTS_PER_EMBED);
      if (batch.length === 0) return;
      const embedder = await this.deps.embedder();
      const embedded = await embedder.embed(batch.map((t) => t.embedText), o.signal);
      const fresh = new Map(batch.map((t, i) => [t.hash, embedded[i]!]));
      const rows = await catalog.storePendingVectors(fresh, embedder.revision);
      await vectors.upsert(rows.map((r) => ({ rowId: r.rowId, vector: fresh.get(r.hash)! })));
      // Other processes searching during a long build load the saved graph instead of rebuilding it each time.
      await vectors.checkpoint();
      o.counters.embedded += batch.length;
      o.progress.chunksQueued = Math.max(o.progress.chunksQueued, o.counters.embedded);
      o.report();
    }
  }

  /** Removes files (relative paths) from the catalog and the vector store; counts those that were indexed. */
  async removeFiles(paths: readonly string[], counters: PassCounters): Promise<void> {
    if (paths.length === 0) return;
    const rows = await Promise.all(paths.map((p) => this.deps.catalog.getFile(p)));
    const known = paths.filter((_, i) => rows[i] !== undefined);
    if (known.length === 0) return;
    const rowIds = await this.deps.catalog.removeFiles(known);
    await this.deps.vectors.remove(rowIds);
    counters.removed += known.length;
  }

  /**
   * Reads, hashes and chunks one file unless it is unchanged (`rows`: the catalog's rows, read before; `rechunk`: an
   * unchanged file is chunked too); null when nothing needs committing.
   */
  private async prepare(
    file: SourceFile,
    counters: PassCounters,
    o: { rows?: ReadonlyMap<string, FileRow>; rechunk: boolean },
  ): Promise<PreparedFile | null> {
    const { catalog } = this.deps;
    const row = o.rows === undefined ? await catalog.getFile(file.path) : o.rows.get(file.path);
    // A file whose language changed (a grammar added by an upgrade) is chunked again even when its bytes did not;
    // so is every file when the index was chunked by another chunker version.
    const chunksStand = row !== undefined && row.language === file.language && !o.rechunk;
    if (row && chunksStand && row.size === file.sizeBytes && row.mtimeMs === file.mtimeMs) return null;
    const read = await readInsideRoot({ realRoot: this.deps.realRoot, absPath: file.absPath });
    if ('refused' in read) {
      // The file vanished, became unreadable, or was swapped for a link out of the root or a FIFO between
      // listing and reading: it no longer belongs in the index.
      counters.skipped.push({ path: file.path, reason: read.refused.reason });
      await this.removeFiles([file.path], counters);
      return null;
    }
    const { bytes } = read;
    const contentHash = createHash('sha256').update(bytes).digest('hex');
    if (row && chunksStand && row.contentHash === contentHash) {
      await catalog.touchFile({ path: file.path, size: bytes.length, mtimeMs: file.mtimeMs });
      return null;
    }
    const content = decodeSource(bytes);
    const secret = this.deps.secrets?.reasonForText(file.path, content) ?? null;
    if (secret !== null) {
      counters.skipped.push({ path: file.path, reason: secret });
      await this.removeFiles([file.path], counters);
      return null;
    }
    const { chunks, warnings } = this.deps.chunker.chunk({ path: file.path, language: file.language, content });
    for (const warning of warnings) counters.skipped.push({ path: file.path, reason: `chunked by lines: ${warning}` });
    return { file: { ...file, sizeBytes: bytes.length }, contentHash, chunks };
  }

  /**
   * Writes each file in its own transaction with the vectors the cache holds; texts without one are queued for the
   * filler. Returns how many distinct texts were queued.
   */
  private async commitChunks(batch: readonly PreparedFile[], counters: PassCounters): Promise<number> {
    const { catalog, vectors } = this.deps;
    const embedder = await this.deps.embedder();
    const texts = new Map<string, string>();
    for (const p of batch) for (const c of p.chunks) texts.set(c.hash, c.embedText);
    const cached = await catalog.cachedVectors([...texts.keys()], embedder.revision);
    const queued = new Set<string>();
    for (const p of batch) {
      const waiting = new Map<string, string>();
      for (const c of p.chunks) if (!cached.has(c.hash)) waiting.set(c.hash, c.embedText);
      const result = await catalog.replaceFile({
        path: p.file.path,
        size: p.file.sizeBytes,
        mtimeMs: p.file.mtimeMs,
        contentHash: p.contentHash,
        language: p.file.language,
        chunks: p.chunks.map((c) => ({ ...c, lexicalTerms: lexicalTermsFor(c) })),
        vectors: new Map(),
        pending: waiting,
        revision: embedder.revision,
      });
      await vectors.remove(result.removedRowIds);
      const known = result.added.filter((a) => cached.has(a.hash));
      await vectors.upsert(known.map((a) => ({ rowId: a.rowId, vector: cached.get(a.hash)! })));
      counters.reused += known.length;
      counters.filesChanged++;
      for (const h of waiting.keys()) queued.add(h);
    }
    return queued.size;
  }
}
