import type { Chunk, ChunkKind, Language } from '../types.js';

/** What the catalog records about the index as a whole. */
export interface Manifest {
  readonly schemaVersion: number;
  /** Embedding model id, e.g. `all-MiniLM-L6-v2`. */
  readonly model: string;
  /** Vector length. */
  readonly dimension: number;
  /** Revision (weights hash) of the model that wrote the vectors. */
  readonly revision: string;
  /** Absolute root directory the paths are relative to. */
  readonly root: string;
  /** ISO 8601 timestamps. */
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Bumped by every write transaction that changes chunks. */
  readonly generation: number;
}

/** One indexed file. */
export interface FileRow {
  /** Path relative to the root, POSIX separators. */
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** Hash of the file's bytes, as the indexer computed it. */
  readonly contentHash: string;
  readonly language: Language;
  /** When the file was last (re)indexed, ms since the epoch. */
  readonly indexedAt: number;
}

/**
 * A chunk as `replaceFile` takes it: the chunker's Chunk fields plus the extra lexical terms.
 * `lexicalTerms` is stored in the FTS `terms` column after the text; it must be a function of the
 * chunk's text, symbol, parent and signature (e.g. `identifierTerms(text)`), because an unchanged chunk
 * keeps its old FTS row.
 */
export type ChunkInput = Pick<
  Chunk,
  'id' | 'kind' | 'symbol' | 'parent' | 'signature' | 'startLine' | 'endLine' | 'text' | 'hash' | 'part'
> & { readonly lexicalTerms: string };

/** One stored chunk, joined with its file. */
export interface ChunkRow {
  /** Catalog row id: the HNSW label. Never reused. */
  readonly rowId: number;
  /** The chunker's stable id (Chunk.id, Hit.chunkId). */
  readonly chunkId: string;
  readonly path: string;
  readonly language: Language;
  readonly kind: ChunkKind;
  readonly symbol: string;
  readonly parent: string | null;
  readonly signature: string;
  /** 1-based, inclusive. */
  readonly startLine: number;
  readonly endLine: number;
  readonly part?: { readonly index: number; readonly count: number };
  /** sha256 of the embed text: the embedding cache key (Chunk.hash). */
  readonly hash: string;
  readonly text: string;
}

/** Everything `replaceFile` writes for one file, in one transaction. */
export interface ReplaceFileInput {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly contentHash: string;
  readonly language: Language;
  readonly chunks: readonly ChunkInput[];
  /** Vectors embedded for this file that are not in the cache yet, by chunk hash. */
  readonly vectors: ReadonlyMap<string, Float32Array>;
  /** Texts (embedText by chunk hash) with neither a cached nor a given vector: queued for the embedder. */
  readonly pending?: ReadonlyMap<string, string>;
  /** Model revision the vectors belong to. */
  readonly revision: string;
}

/** What `replaceFile` changed: the rows the vector store must drop and add. */
export interface ReplaceFileResult {
  readonly removedRowIds: number[];
  readonly added: Array<{ readonly rowId: number; readonly hash: string }>;
  /** Old rows kept as they were (their text did not change; lines may have moved). */
  readonly keptCount: number;
}

/** A lexical (BM25) hit: higher score is better. */
export interface LexicalHit {
  readonly rowId: number;
  readonly score: number;
}

/** Size of the catalog. */
export interface CatalogStats {
  readonly files: number;
  readonly chunks: number;
  readonly cachedVectors: number;
  /** catalog.sqlite plus its WAL, in bytes. */
  readonly dbBytes: number;
}
