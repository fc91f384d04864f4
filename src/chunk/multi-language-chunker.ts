import type { Language } from '../types.js';
import type { ChunkInput, ChunkResult, Chunker } from './chunker.js';
import { ComponentChunker } from './component-chunker.js';
import { LineWindowChunker } from './line-window-chunker.js';
import { MarkdownChunker } from './markdown-chunker.js';
import type { CountTokens } from './token-estimate.js';
import { TreeSitterChunker } from './tree-sitter-chunker.js';

/** Options shared by all chunkers. */
export interface ChunkerOptions {
  /** Most model tokens of a chunk's embedText (header + code). */
  readonly maxTokens: number;
  /** Token counter of the embedding model; default `estimateTokens`. */
  readonly countTokens?: CountTokens;
  /** Parse time budget per file in ms (default 3000). */
  readonly parseTimeoutMs?: number;
}

/**
 * Routes each file to the chunker of its language: tree-sitter for the languages with a spec, the script
 * blocks of Vue/Svelte components, headings for markdown, line windows for everything else. Never throws.
 */
export class MultiLanguageChunker implements Chunker {
  readonly languages: readonly Language[];
  private readonly treeSitter: TreeSitterChunker;
  private readonly components: ComponentChunker;
  private readonly markdown: MarkdownChunker;
  private readonly lines: LineWindowChunker;

  constructor(options: ChunkerOptions) {
    this.treeSitter = new TreeSitterChunker(options);
    this.components = new ComponentChunker(this.treeSitter, options);
    this.languages = [...this.treeSitter.languages, ...this.components.languages, 'markdown', 'text'];
    this.markdown = new MarkdownChunker(options);
    this.lines = new LineWindowChunker(options);
  }

  /** Loads the WASM grammars these languages need (see `Chunker.prepare`). */
  prepare(languages: readonly Language[]): Promise<void> {
    return this.treeSitter.prepare(languages);
  }

  /** Chunks one file with the chunker of its language. */
  chunk(input: ChunkInput): ChunkResult {
    if (input.language === 'markdown') return this.markdown.chunk(input);
    if (this.components.languages.includes(input.language)) return this.components.chunk(input);
    if (this.treeSitter.languages.includes(input.language)) return this.treeSitter.chunk(input);
    return this.lines.chunk(input);
  }
}
