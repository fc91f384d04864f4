import type { ChunkKind } from '../types.js';
import type { CycleQuery } from './refine.js';

/** A chunk of a result file. */
export interface ResultChunk {
  readonly symbol: string;
  readonly kind: ChunkKind;
  readonly parent: string | null;
  readonly startLine: number;
  readonly endLine: number;
  readonly relevance: number;
  /** Set when the caller asked for code (e.g. MCP within a token budget). */
  readonly text?: string;
}

/** One file of the answer, with its best evidence across cycles. */
export interface ResultFile {
  readonly path: string;
  readonly relevance: number;
  readonly reason: string;
  readonly chunks: ResultChunk[];
  readonly missingContext: string[];
  /** The cycle whose evaluation gave this relevance. */
  readonly cycle: number;
  /**
   * `answer`: judged on its own evidence; `context`: there because an answer uses what it defines or it uses
   * what an answer defines (gap-following). Answers rank before context files of the same band.
   */
  readonly role: 'answer' | 'context';
}

/** What one cycle did, for the trace. */
export interface CycleTrace {
  readonly n: number;
  readonly query: CycleQuery;
  /** Chunks the dispatch returned. */
  readonly hits: number;
  /** Files that scored >= the high threshold after this cycle (cumulative). */
  readonly high: number;
  /** Terms learned from this cycle's high hits (used by the next cycle). */
  readonly newTerms: string[];
  /** Files excluded after this cycle. */
  readonly excluded: string[];
  /** Gaps found after this cycle. */
  readonly gaps: string[];
  /** Files first seen in this cycle with relevance >= 0.2. */
  readonly newFiles: number;
  readonly ms: number;
}

/** Why the loop stopped. */
export type StopReason = 'enough' | 'max-cycles' | 'no-progress';

/** The answer of the retrieval loop. */
export interface RetrievalResult {
  /** Files at or above the high threshold, best first. */
  readonly results: ResultFile[];
  /** Files in the related band (0.4 up to the high threshold), best first. */
  readonly related: ResultFile[];
  readonly cycles: CycleTrace[];
  readonly stoppedBecause: StopReason;
}
