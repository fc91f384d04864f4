import { fitText } from '../mcp/token-budget.js';
import type { ChunkKind } from '../types.js';
import type { RetrievalSession, SessionCandidate } from './retrieval-session.js';

/** How a judge scores, as tool descriptions and judge commands are told. */
export const JUDGE_BANDS =
  'Score each file 0..1 for the task: 0.8-1 implements it (the code to read or change); 0.5-0.7 related (types, ' +
  'callers, configuration it needs); 0.2-0.4 tangential; below 0.2 irrelevant (excluded from later cycles). ' +
  'missingContext lists what you would still need to act on the file (e.g. "definition of TokenBucket", "where the ' +
  'limiter is registered"): the next cycle searches for it. Files you do not judge keep the built-in hint.';

/** A candidate chunk as a judge sees it. */
export interface CandidateChunkView {
  readonly chunkId: string;
  readonly symbol: string;
  readonly kind: ChunkKind;
  readonly parent: string | null;
  readonly startLine: number;
  readonly endLine: number;
  readonly text?: string;
  readonly textTruncated?: true;
}

/** A candidate file as a judge sees it. */
export interface CandidateView {
  readonly path: string;
  readonly hint: { readonly relevance: number; readonly reason: string };
  readonly previous?: { readonly relevance: number; readonly cycle: number };
  readonly chunks: CandidateChunkView[];
}

/**
 * The current cycle's candidates for a judge, the built-in judge's best first, with chunk code within a budget
 * of approximate tokens: chunks in that order, a chunk cut at a line boundary when at least 64 tokens are left.
 * Files judged in an earlier cycle come without code (the judge has read it).
 */
export function viewCandidates(candidates: readonly SessionCandidate[], budgetTokens: number): { candidates: CandidateView[]; tokensUsed: number; truncated: boolean } {
  const budget = Math.max(0, Math.floor(budgetTokens));
  let left = budget;
  let truncated = false;
  const ordered = [...candidates].sort((a, b) => b.hint.relevance - a.hint.relevance || a.path.localeCompare(b.path));
  const views = ordered.map((c): CandidateView => {
    const chunks = [...c.chunks]
      .sort((a, b) => a.rank - b.rank)
      .map((k): CandidateChunkView => {
        const base = { chunkId: k.chunkId, symbol: k.symbol, kind: k.kind, parent: k.parent, startLine: k.startLine, endLine: k.endLine };
        if (c.previous) return base;
        const fit = fitText(k.text, left);
        left -= fit.cost;
        truncated ||= fit.cut;
        if (fit.text === undefined) return base;
        return fit.cut ? { ...base, text: fit.text, textTruncated: true } : { ...base, text: fit.text };
      })
      .sort((a, b) => a.startLine - b.startLine);
    return { path: c.path, hint: { relevance: round(c.hint.relevance), reason: c.hint.reason }, ...(c.previous ? { previous: c.previous } : {}), chunks };
  });
  return { candidates: views, tokensUsed: budget - left, truncated };
}

/** The document a judge command reads: the task, what the loop has learned, the bands and the candidates. */
export function judgeRequest(session: RetrievalSession, budgetTokens: number): Record<string, unknown> {
  const { text, keywords, patterns, excludes, maxCycles } = session.task;
  const context = session.context();
  return {
    task: { text, keywords, patterns, excludes },
    cycle: session.cycle,
    maxCycles,
    learnedTerms: [...context.learnedTerms],
    focusAreas: [...context.focusAreas],
    bands: JUDGE_BANDS,
    candidates: viewCandidates(session.candidates(), budgetTokens).candidates,
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
