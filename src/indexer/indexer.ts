import { createHash } from 'node:crypto';
import type { Chunker } from '../chunk/chunker.js';
import { decodeSource } from '../chunk/decode-source.js';
import { readInsideRoot } from '../discover/open-regular-file.js';
import type { SecretPolicy } from '../discover/secret-policy.js';
import type { Embedder } from '../embed/embedder.js';
import { AbortError } from '../errors.js';
import type { Catalog } from '../store/catalog.js';
import type { VectorStore } from '../store/vector-store.js';
import type { Chunk, SourceFile } from '../types.js';
import { lexicalTermsFor } from './lexical-terms.js';
import { PassCounters, type ProgressListener } from './update-report.js';

/** Chunks to collect before one embed call + commit: bounds memory and the work a crash can lose. */
const CHUNKS_PER_COMMIT = 256;

/** A file read, hashed and chunked, waiting for its vectors. */
interface PreparedFile {
  readonly file: SourceFile;
  readonly contentHash: string;
  readonly chunks: Chunk[];
}

/** What the indexer needs; the caller (CodeIndex) owns them and holds the write lock. */
export interface IndexerDeps {
  readonly catalog: Catalog;
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
 * unchanged -> touch; else chunk, reuse cached vectors by text hash, embed only new texts, commit per batch.
 * Progress is recorded only by the commit that makes it true, so a crash never claims lost work.
 */
export class Indexer {
  constructor(private readonly deps: IndexerDeps) {}

  /** Indexes (or re-checks) the given files; `counters` accumulates what happened. */
  async indexFiles(options: {
    files: readonly SourceFile[];
    counters: PassCounters;
    onProgress?: ProgressListener;
    signal?: AbortSignal;
  }): Promise<void> {
    const { files, counters, onProgress, signal } = options;
    let pending: PreparedFile[] = [];
    let pendingChunks = 0;
    let filesDone = 0;
    const report = (): void =>
      onProgress?.({ phase: 'index', filesDone, filesTotal: files.length, chunksEmbedded: counters.embedded });
    // Grammars that load asynchronously (WASM) are loaded before the first file is chunked.
    await this.deps.chunker.prepare?.([...new Set(files.map((f) => f.language))]);
    for (const file of files) {
      if (signal?.aborted) throw new AbortError('Indexing aborted; everything committed so far is kept.');
      const prepared = await this.prepare(file, counters);
      filesDone++;
      if (prepared) {
        pending.push(prepared);
        pendingChunks += prepared.chunks.length;
      }
      if (pendingChunks >= CHUNKS_PER_COMMIT) {
        await this.commit(pending, counters, signal);
        pending = [];
        pendingChunks = 0;
        report();
      } else if (filesDone % 50 === 0) {
        report();
      }
    }
    if (pending.length > 0) await this.commit(pending, counters, signal);
    report();
  }

  /** Removes files (relative paths) from the catalog and the vector store; returns how many were indexed. */
  removeFiles(paths: readonly string[], counters: PassCounters): void {
    if (paths.length === 0) return;
    const known = paths.filter((p) => this.deps.catalog.getFile(p) !== undefined);
    if (known.length === 0) return;
    const rowIds = this.deps.catalog.removeFiles(known);
    this.deps.vectors.remove(rowIds);
    counters.removed += known.length;
  }

  /** Reads, hashes and chunks one file unless it is unchanged; null when nothing needs embedding. */
  private async prepare(file: SourceFile, counters: PassCounters): Promise<PreparedFile | null> {
    const { catalog } = this.deps;
    const row = catalog.getFile(file.path);
    // A file whose language changed (a grammar added by an upgrade) is chunked again even when its bytes did not.
    const sameLanguage = row !== undefined && row.language === file.language;
    if (row && sameLanguage && row.size === file.sizeBytes && row.mtimeMs === file.mtimeMs) return null;
    const read = await readInsideRoot({ realRoot: this.deps.realRoot, absPath: file.absPath });
    if ('refused' in read) {
      // The file vanished, became unreadable, or was swapped for a link out of the root or a FIFO between
      // listing and reading: it no longer belongs in the index.
      counters.skipped.push({ path: file.path, reason: read.refused.reason });
      this.removeFiles([file.path], counters);
      return null;
    }
    const { bytes } = read;
    const contentHash = createHash('sha256').update(bytes).digest('hex');
    if (row && sameLanguage && row.contentHash === contentHash) {
      catalog.touchFile({ path: file.path, size: bytes.length, mtimeMs: file.mtimeMs });
      return null;
    }
    const content = decodeSource(bytes);
    const secret = this.deps.secrets?.reasonForText(file.path, content) ?? null;
    if (secret !== null) {
      counters.skipped.push({ path: file.path, reason: secret });
      this.removeFiles([file.path], counters);
      return null;
    }
    const { chunks, warnings } = this.deps.chunker.chunk({ path: file.path, language: file.language, content });
    for (const warning of warnings) counters.skipped.push({ path: file.path, reason: `chunked by lines: ${warning}` });
    return { file: { ...file, sizeBytes: bytes.length }, contentHash, chunks };
  }

  /** Embeds the texts not in the cache, then writes each file in its own transaction. */
  private async commit(batch: readonly PreparedFile[], counters: PassCounters, signal?: AbortSignal): Promise<void> {
    const { catalog, vectors } = this.deps;
    const embedder = await this.deps.embedder();
    const texts = new Map<string, string>();
    for (const p of batch) for (const c of p.chunks) texts.set(c.hash, c.embedText);
    const cached = catalog.cachedVectors([...texts.keys()], embedder.revision);
    const missing = [...texts.keys()].filter((h) => !cached.has(h));
    const fresh = new Map<string, Float32Array>();
    if (missing.length > 0) {
      const embedded = await embedder.embed(missing.map((h) => texts.get(h)!), signal);
      missing.forEach((h, i) => fresh.set(h, embedded[i]!));
      counters.embedded += missing.length;
    }
    for (const p of batch) {
      const own = new Map<string, Float32Array>();
      for (const c of p.chunks) {
        const v = fresh.get(c.hash);
        if (v) own.set(c.hash, v);
      }
      const result = catalog.replaceFile({
        path: p.file.path,
        size: p.file.sizeBytes,
        mtimeMs: p.file.mtimeMs,
        contentHash: p.contentHash,
        language: p.file.language,
        chunks: p.chunks.map((c) => ({ ...c, lexicalTerms: lexicalTermsFor(c) })),
        vectors: own,
        revision: embedder.revision,
      });
      vectors.remove(result.removedRowIds);
      vectors.upsert(result.added.map((a) => ({ rowId: a.rowId, vector: (fresh.get(a.hash) ?? cached.get(a.hash))! })));
      counters.reused += result.added.filter((a) => !fresh.has(a.hash)).length;
      counters.filesChanged++;
      // A text embedded for this file is in the cache now; later files of the batch reuse it.
      for (const [h, v] of own) {
        cached.set(h, v);
        fresh.delete(h);
      }
    }
  }
}
