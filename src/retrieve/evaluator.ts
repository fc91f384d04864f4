import type { ChunkKind } from '../types.js';
import type { ResolvedTask } from './task.js';

/** One chunk of a candidate file, with the evidence the search found. */
export interface CandidateChunk {
  readonly rowId: number;
  readonly chunkId: string;
  readonly symbol: string;
  readonly kind: ChunkKind;
  readonly parent: string | null;
  readonly signature: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
  /** Cosine similarity of the chunk to the ORIGINAL task text (not the refined query). */
  readonly taskSimilarity: number;
  /** BM25 of the chunk for the ORIGINAL task text, relative to the best chunk's (0..1; 0 = no lexical match). */
  readonly taskLexical: number;
  /** Rank of the chunk in this cycle's fused search (0 = best). */
  readonly rank: number;
  /** Which search found it: the cycle's main search, the learned folders, users of a high result, or a gap's definition. */
  readonly origin: ChunkOrigin;
}

/** Which of a cycle's searches found a chunk. */
export type ChunkOrigin = 'search' | 'pattern' | 'usage' | 'definition';

/** A file the search found, with the chunks that matched. */
export interface CandidateFile {
  readonly path: string;
  readonly chunks: readonly CandidateChunk[];
}

/** The judgement of one file. Bands: 0.8-1 implements the target; 0.5-0.7 related; 0.2-0.4 tangential; <0.2 irrelevant. */
export interface Evaluation {
  readonly path: string;
  /** 0..1. */
  readonly relevance: number;
  /** A short sentence naming the evidence. */
  readonly reason: string;
  /** What is still missing to act on this file: uncovered task terms, referenced definitions not yet found. */
  readonly missingContext: string[];
  /** Relevance per chunk id (optional; defaults to the file's). */
  readonly chunkRelevance?: Readonly<Record<string, number>>;
  /** What the built-in judge scored the file from (named features), for training and debugging. */
  readonly features?: Readonly<Record<string, number>>;
}

/** What the loop has learned so far, for evaluators that want it. */
export interface EvaluationContext {
  /** 1-based cycle number. */
  readonly cycle: number;
  /** Terms learned from earlier cycles' high-relevance hits: the code base's own words for the task. */
  readonly learnedTerms: readonly string[];
  /** Open gaps from the previous cycle. */
  readonly focusAreas: readonly string[];
}

/** Judges candidate files against the task. The default is deterministic; an LLM or cross-encoder may replace it. */
export interface Evaluator {
  evaluate(task: ResolvedTask, files: readonly CandidateFile[], context: EvaluationContext): Promise<Evaluation[]> | Evaluation[];
}

/** A function form of the Evaluator port, as `retrieve(index, task, { evaluate })` takes it. */
export type EvaluateFn = (task: ResolvedTask, files: readonly CandidateFile[], context: EvaluationContext) => Promise<Evaluation[]> | Evaluation[];
