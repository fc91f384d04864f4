import type { CodeIndex } from '../code-index.js';
import type { EvaluateFn, Evaluator } from './evaluator.js';
import type { RetrievalResult } from './retrieval-result.js';
import { startRetrieval, type RetrievalSessionOptions } from './retrieval-session.js';
import type { Task } from './task.js';

/** @internal The loop's constants, for the CLI and benches. */
export { LOOP_TUNING } from './dispatch.js';

/** Options of {@link retrieve}. */
export interface RetrieveOptions extends RetrievalSessionOptions {
  /** Replaces the default evaluator (an LLM, a cross-encoder); may be async. */
  evaluate?: EvaluateFn | Evaluator;
}

/**
 * The iterative retrieval loop: DISPATCH (hybrid search) -> EVALUATE (relevance, reason, missing context per
 * file) -> REFINE (learned terms, patterns, excludes, gaps, expanded query vector) -> LOOP, at most maxCycles;
 * stops early with at least minHigh files >= highThreshold and no critical gap, or when a cycle adds nothing.
 * A loop over {@link startRetrieval}'s session: without `evaluate`, every cycle keeps the built-in judge's verdicts.
 * @throws ConfigError for a bad task (empty text, bad globs or numbers) or a bad evaluation from `evaluate`.
 * @example
 * const { results, cycles } = await retrieve(index, { text: 'add rate limiting to the API endpoints' });
 */
export async function retrieve(index: CodeIndex, task: Task, options: RetrieveOptions = {}): Promise<RetrievalResult> {
  const session = await startRetrieval(index, task, options);
  const evaluator = options.evaluate === undefined ? undefined : typeof options.evaluate === 'function' ? { evaluate: options.evaluate } : options.evaluate;
  while (!session.isDone) {
    const judgements = evaluator ? await evaluator.evaluate(session.task, session.candidates(), session.context()) : [];
    await session.judge(judgements);
  }
  return session.result();
}
