import { viewCandidates } from '../retrieve/candidate-view.js';
import type { SecretPolicy } from '../discover/secret-policy.js';
import type { RetrievalResult } from '../retrieve/retrieval-result.js';
import type { RetrievalSession } from '../retrieve/retrieval-session.js';
import { loadChunkCode } from './chunk-code.js';
import { renderCandidatesText } from './candidates-markdown.js';
import { renderContextPack } from './context-markdown.js';
import { clip } from './markdown.js';
import { fitCodeToBudget } from './token-budget.js';
import { ToolReply } from './tool-result.js';

/**
 * The answer of a retrieval as `retrieve_context` and `judge_context` return it: results first, then related, code
 * within the budget. The structured content holds everything (code within the budget); the text block is Markdown
 * (see {@link renderContextPack}) that fits the budget whole, with the cycle trace only when `trace` is set.
 */
export async function contextPack(o: { root: string; secrets: SecretPolicy; result: RetrievalResult; tokenBudget: number; trace?: boolean }): Promise<ToolReply> {
  const { result, tokenBudget } = o;
  const textOf = await loadChunkCode({ root: o.root, secrets: o.secrets, files: [...result.results, ...result.related] });
  const code = fitCodeToBudget({ results: result.results, related: result.related, budgetTokens: tokenBudget, textOf });
  const view = {
    results: code.results,
    related: code.related,
    cycles: result.cycles,
    stoppedBecause: result.stoppedBecause,
    tokenBudget,
    tokensUsed: code.tokensUsed,
    truncated: code.truncated,
  };
  return new ToolReply({ status: 'done', ...view }, renderContextPack(view, { trace: o.trace ?? false }));
}

/** Characters of the task the candidates text repeats: the agent wrote it, and the budget is for the code. */
const MAX_TASK_CHARS_SHOWN = 200;

/** One cycle of an agent-judged session: its candidates with code within the budget, and how to answer. */
export function judgeStep(o: { session: RetrievalSession; sessionId: string; tokenBudget: number }): ToolReply {
  const { session, sessionId, tokenBudget } = o;
  const view = viewCandidates(session.candidates(), tokenBudget);
  const value = {
    status: 'judge',
    sessionId,
    cycle: session.cycle,
    maxCycles: session.task.maxCycles,
    candidates: view.candidates,
    tokenBudget,
    tokensUsed: view.tokensUsed,
    truncated: view.truncated,
  };
  const head =
    `Cycle ${session.cycle} of at most ${session.task.maxCycles} for: ${clip(session.task.text, MAX_TASK_CHARS_SHOWN)}\n` +
    `Judge these ${view.candidates.length} files with judge_context({ sessionId: "${sessionId}", evaluations: [{ path, relevance, reason?, missingContext? }] }).`;
  return new ToolReply(value, renderCandidatesText(view.candidates, { head, tokenBudget }));
}
