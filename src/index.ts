/**
 * codescout's public API: open an index of a folder, keep it current, search it, and run the iterative
 * retrieval loop. Everything a library user needs is exported from here; nothing else is public.
 */
export { openIndex, CodeIndex, type OpenIndexOptions, type SearchOptions, type IndexStats } from './code-index.js';
export { resolveConfig, DEFAULTS, type IndexOptions, type Config } from './config.js';
export type { IndexFilters } from './stored-filters.js';
export type { UpdateReport, UpdateProgress, ProgressListener } from './indexer/update-report.js';
export type { Chunk, ChunkKind, Hit, Language, SearchMode, SourceFile, SkippedFile } from './types.js';
export type { Embedder, EmbedderIdentity } from './embed/embedder.js';
export type { Chunker, ChunkInput, ChunkResult } from './chunk/chunker.js';
export { MODELS, DEFAULT_MODEL_ID, type ModelSpec } from './embed/models.js';
export { resolveModel } from './embed/provision-model.js';
export { createEmbedder } from './embed/create-embedder.js';
export { splitIdentifier, identifierTerms } from './chunk/identifiers.js';
export {
  CodeIndexError,
  ConfigError,
  ModelLoadError,
  IndexMismatchError,
  IndexLockedError,
  IndexCorruptError,
  ParseError,
  AbortError,
  JudgeError,
} from './errors.js';
export { retrieve, type RetrieveOptions } from './retrieve/retrieve.js';
export { startRetrieval, RetrievalSession, type RetrievalSessionOptions, type SessionCandidate, type JudgeStep } from './retrieve/retrieval-session.js';
export type { Judgement } from './retrieve/judgements.js';
export type { Task, ResolvedTask } from './retrieve/task.js';
export type { Evaluator, EvaluateFn, Evaluation, EvaluationContext, CandidateFile, CandidateChunk } from './retrieve/evaluator.js';
export type { RetrievalResult, ResultFile, ResultChunk, CycleTrace, StopReason } from './retrieve/retrieval-result.js';
export type { CycleQuery } from './retrieve/refine.js';
export { SCHEMAS, type SchemaName } from './schemas.js';
export { createMcpServer, TOOL_NAMES, type McpServerOptions } from './mcp/server.js';
export { IndexSession, type IndexSessionOptions } from './mcp/index-session.js';
