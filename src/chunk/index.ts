export type { Chunker, ChunkInput, ChunkResult } from './chunker.js';
export { TreeSitterChunker, type TreeSitterChunkerOptions } from './tree-sitter-chunker.js';
export { MarkdownChunker } from './markdown-chunker.js';
export { LineWindowChunker, chunkByLineWindows, type LineWindowOptions } from './line-window-chunker.js';
export { MultiLanguageChunker, type ChunkerOptions } from './multi-language-chunker.js';
export { estimateTokens, type CountTokens } from './token-estimate.js';
export { splitIdentifier, identifierTerms } from './identifiers.js';
export { decodeSource } from './decode-source.js';
export { TREE_SITTER_LANGUAGES, type LanguageSpec } from './languages/index.js';
