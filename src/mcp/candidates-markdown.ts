import type { CandidateView } from '../retrieve/candidate-view.js';
import { MAX_BARE_CHUNKS, MAX_REASON_CHARS } from './context-markdown.js';
import { chunkLines, clip, languageTag, oneLine, type ListedChunk } from './markdown.js';
import { countLeftOut, fitTextPlan, leftOutLine, maxCharsFor, type TextPlan } from './text-fit.js';

/**
 * The candidates of one agent-judged cycle as Markdown, all of it within `tokenBudget` approximate tokens
 * (characters / 4): `head` (the task and how to answer, always shown), then per file, best hint first, a heading
 * (path, the built-in hint and its reason, what you judged before) and its chunks with fenced code for those that
 * carry it, then one line saying what was left out to fit. Degrades as {@link fitTextPlan} does.
 */
export function renderCandidatesText(views: readonly CandidateView[], o: { head: string; tokenBudget: number }): string {
  const code = views.map((c) => c.chunks.filter((k) => k.text !== undefined).map((k) => k.text!));
  const render = (plan: TextPlan): string => {
    const parts = [o.head];
    views.forEach((c, i) => {
      if (plan.entries[i]!.shown) parts.push(renderCandidate(c, plan.entries[i]!.withReason, plan.entries[i]!.code));
    });
    const footer = leftOutLine({
      tokenBudget: o.tokenBudget,
      left: countLeftOut(plan, code, (i) => views[i]!.hint.reason !== ''),
      noun: 'file',
      codeNoun: 'chunk',
      tail: ' (files you do not judge keep the built-in hint)',
    });
    if (footer !== '') parts.push(footer);
    return parts.join('\n\n');
  };
  return render(fitTextPlan({ maxChars: maxCharsFor(o.tokenBudget), code, hasExtra: false, render }));
}

function renderCandidate(c: CandidateView, withReason: boolean, code: ReadonlyArray<string | undefined>): string {
  const why = withReason && c.hint.reason !== '' ? `: ${clip(c.hint.reason, MAX_REASON_CHARS)}` : '';
  const judged = c.previous ? `  [you judged ${c.previous.relevance} in cycle ${c.previous.cycle}]` : '';
  const lines = [`## ${oneLine(c.path)}  (hint ${c.hint.relevance.toFixed(2)}${why})${judged}`];
  let piece = 0;
  const chunks = c.chunks.map((k): ListedChunk => {
    const { text, textTruncated, ...place } = k;
    const shown = text === undefined ? undefined : code[piece++];
    if (shown === undefined) return place;
    return textTruncated || shown !== text ? { ...place, text: shown, textTruncated: true } : { ...place, text: shown };
  });
  lines.push(...chunkLines(chunks, { tag: languageTag(c.path), maxBare: MAX_BARE_CHUNKS, bareSuffix: ' (code not shown)' }));
  return lines.join('\n');
}
