/**
 * An Embedder for benchmarks that answers document texts from an existing SQLite index's embedding cache and hands
 * only the rest to the real model: a second store can be built from the same vectors without embedding the corpus
 * again. The vectors are the model's own (same revision), so search results do not change; only build time does.
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import type { Embedder } from '../../src/index.js';
import { blobToVector } from '../../src/store/vector-codec.js';

/** What a {@link CacheBackedEmbedder} did: texts served from the cache, texts the model embedded and its time. */
export interface CacheBackedCounts {
  readonly cached: number;
  readonly computed: number;
  /** Wall time spent in the real model's embed(), ms. */
  readonly computeMs: number;
}

/**
 * Wraps the real embedder. Document texts are keyed as the chunker keys the cache: sha256 of the embed text without
 * its first (path) line. With `memoQueries`, embedQuery computes each distinct text once (for the concurrent-reader
 * phase, which measures the store, not the model). Many indexes may share one: their close() calls dispose(), which
 * does nothing; the owner calls {@link close}, and disposes the real embedder itself.
 */
export class CacheBackedEmbedder implements Embedder {
  readonly model: string;
  readonly dimension: number;
  readonly revision: string;
  readonly maxTokens: number;
  private readonly db: Database.Database;
  private readonly lookup: Database.Statement<[string, string], { vector: Buffer }>;
  private readonly memoQueries: boolean;
  private readonly queryMemo = new Map<string, Float32Array>();
  private counts = { cached: 0, computed: 0, computeMs: 0 };

  constructor(private readonly real: Embedder, o: { catalogFile: string; memoQueries?: boolean }) {
    this.model = real.model;
    this.dimension = real.dimension;
    this.revision = real.revision;
    this.maxTokens = real.maxTokens;
    this.db = new Database(o.catalogFile, { readonly: true, fileMustExist: true });
    this.lookup = this.db.prepare('SELECT vector FROM embeddings WHERE text_hash = ? AND revision = ?');
    this.memoQueries = o.memoQueries ?? false;
  }

  /** Counts since construction (or the last reset). */
  takeCounts(): CacheBackedCounts {
    const c = this.counts;
    this.counts = { cached: 0, computed: 0, computeMs: 0 };
    return c;
  }

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const out: Array<Float32Array | undefined> = texts.map((t) => this.cachedVector(t));
    const missing = out.flatMap((v, i) => (v === undefined ? [i] : []));
    this.counts.cached += texts.length - missing.length;
    if (missing.length > 0) {
      const t0 = performance.now();
      const fresh = await this.real.embed(missing.map((i) => texts[i]!), signal);
      this.counts.computeMs += performance.now() - t0;
      this.counts.computed += missing.length;
      missing.forEach((i, j) => (out[i] = fresh[j]!));
    }
    return out as Float32Array[];
  }

  async embedQuery(text: string): Promise<Float32Array> {
    if (!this.memoQueries) return this.real.embedQuery(text);
    const known = this.queryMemo.get(text);
    if (known !== undefined) return known;
    const vector = await this.real.embedQuery(text);
    this.queryMemo.set(text, vector);
    return vector;
  }

  countTokens(text: string): number {
    return this.real.countTokens(text);
  }

  /** Nothing: see {@link close}. */
  async dispose(): Promise<void> {}

  /** Closes the cache database (the real embedder belongs to whoever made it). */
  close(): void {
    if (this.db.open) this.db.close();
  }

  private cachedVector(embedText: string): Float32Array | undefined {
    const hash = createHash('sha256').update(embedText.slice(embedText.indexOf('\n') + 1)).digest('hex');
    const row = this.lookup.get(hash, this.revision);
    const vector = row === undefined ? null : blobToVector(row.vector);
    return vector !== null && vector.length === this.dimension ? vector : undefined;
  }
}
