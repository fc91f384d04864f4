/**
 * Nouns shared by every stage of the data flow: discover -> chunk -> embed -> store -> retrieve.
 * A stage knows only the types it takes and hands on.
 */

/** Languages the chunker knows. `text` is the line-window fallback for any other text file. */
export type Language =
  | 'typescript' | 'tsx' | 'javascript' | 'jsx'
  | 'python' | 'go' | 'rust' | 'java' | 'csharp' | 'c' | 'cpp' | 'ruby' | 'php' | 'kotlin' | 'scala' | 'swift' | 'bash'
  | 'vue' | 'svelte'
  | 'markdown' | 'text';

/** A file found under the root that belongs in the index. */
export interface SourceFile {
  /** Path relative to the root, POSIX separators. */
  readonly path: string;
  /** Absolute path on disk. */
  readonly absPath: string;
  readonly language: Language;
  readonly sizeBytes: number;
  readonly mtimeMs: number;
}

/** A file discovery or chunking chose to leave out, and why. */
export interface SkippedFile {
  readonly path: string;
  readonly reason: string;
}

/** What kind of code a chunk holds. */
export type ChunkKind =
  | 'function'
  | 'method'
  | 'class'
  | 'interface'
  | 'type'
  | 'enum'
  | 'namespace'
  | 'const'
  | 'export'
  | 'module'
  | 'section'
  | 'text';

/** One retrieval unit: a symbol (or part of one), a markdown section, or a window of lines. */
export interface Chunk {
  /** Stable id: hash of path + kind + qualified symbol + part + start line. */
  readonly id: string;
  readonly path: string;
  readonly language: Language;
  readonly kind: ChunkKind;
  /** Symbol name, e.g. `handleRequest`; module chunks use the file's base name. */
  readonly symbol: string;
  /** Enclosing symbol (class for a method, namespace for its members), or null. */
  readonly parent: string | null;
  /** First line of the declaration, trimmed (e.g. `export function f(a: number): string`). */
  readonly signature: string;
  /** 1-based, inclusive. */
  readonly startLine: number;
  /** 1-based, inclusive. */
  readonly endLine: number;
  /** The source text of the chunk, exactly as in the file (lines startLine..endLine, or part of them). */
  readonly text: string;
  /** The text handed to the embedder: a short header (path, kind, qualified name, signature, doc) + code. */
  readonly embedText: string;
  /** sha256 (hex) of embedText without its first (path) line: the key of the embedding cache, so renames reuse vectors. */
  readonly hash: string;
  /** `{ index, count }` when a big symbol was split into parts, else undefined. */
  readonly part?: { readonly index: number; readonly count: number };
}

/** A search result: one chunk and its score (higher is better). */
export interface Hit {
  readonly chunkId: string;
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly symbol: string;
  readonly kind: ChunkKind;
  readonly parent: string | null;
  readonly signature: string;
  /** Fused rank score (higher is better; reciprocal-rank fusion in hybrid mode, so only the order means much). */
  readonly score: number;
  /** Cosine similarity of the chunk to the query, -1..1 (about 0..1 in practice); absent in lexical mode. */
  readonly similarity?: number;
  /** The chunk's code as indexed (lines startLine..endLine). */
  readonly text: string;
  /** `{ index, count }` (index from 0) when the chunk is one part of a symbol split for size. */
  readonly part?: { readonly index: number; readonly count: number };
}

/** Search modes of the one-shot search. */
export type SearchMode = 'vector' | 'lexical' | 'hybrid';
