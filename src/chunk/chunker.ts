import type { Chunk, Language } from '../types.js';

/** The input of a chunker: one file's decoded text. */
export interface ChunkInput {
  /** Path relative to the root, POSIX separators. */
  readonly path: string;
  readonly language: Language;
  /** Decoded UTF-8 text (BOM stripped, invalid bytes replaced). */
  readonly content: string;
}

/** What a chunker returns: the chunks plus any warnings (e.g. a parser fallback). */
export interface ChunkResult {
  readonly chunks: Chunk[];
  readonly warnings: string[];
}

/** Cuts one file into retrieval units. Pure and synchronous; never throws on bad input. */
export interface Chunker {
  readonly languages: readonly string[];
  chunk(input: ChunkInput): ChunkResult;
  /**
   * Loads, once, what chunking these languages needs and cannot load synchronously (WASM grammars); call it
   * before `chunk`. Never rejects: a grammar that fails to load fails only its own files (cut into lines).
   */
  prepare?(languages: readonly Language[]): Promise<void>;
}
