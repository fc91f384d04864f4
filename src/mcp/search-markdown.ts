import type { Hit } from '../types.js';
import { fenced, languageTag, oneLine } from './markdown.js';
import { countLeftOut, fitTextPlan, leftOutLine, maxCharsFor, type TextPlan } from './text-fit.js';
import type { BudgetedHit } from './token-budget.js';

/**
 * The hits of `search_code` as Markdown for an agent, all of it within `tokenBudget` approximate tokens
 * (characters / 4): a summary line, then per hit, best first, a heading (`path:startLine-endLine kind symbol`,
 * similarity) and its code when the budget bought it, `note` when there is one and room, and one line saying what
 * was left out to fit. At a small budget the best hit and as much of its code as fits stay (see {@link fitTextPlan}).
 */
export function renderSearchHits(hits: readonly BudgetedHit<Hit>[], o: { tokenBudget: number; truncated: boolean; note?: string }): string {
  if (hits.length === 0) return o.note === undefined ? 'No hits.' : `No hits.\n\n${o.note}`;
  const code = hits.map((h) => (h.text === undefined ? [] : [h.text]));
  const render = (plan: TextPlan): string => {
    const parts = [`${hits.length} hit${hits.length === 1 ? '' : 's'}, best first.`];
    hits.forEach((h, i) => {
      if (plan.entries[i]!.shown) parts.push(renderHit(h, plan.entries[i]!.code[0]));
    });
    if (plan.extra) parts.push(o.note!);
    const left = countLeftOut(plan, code, () => false);
    const footer = leftOutLine({ tokenBudget: o.tokenBudget, left, noun: 'hit', codeNoun: 'hit', more: left.code === 0 && o.truncated ? ['some code'] : [] });
    if (footer !== '') parts.push(footer);
    return parts.join('\n\n');
  };
  return render(fitTextPlan({ maxChars: maxCharsFor(o.tokenBudget), code, hasExtra: o.note !== undefined, render }));
}

function renderHit({ hit: h, text, textTruncated }: BudgetedHit<Hit>, shown: string | undefined): string {
  const similarity = h.similarity === undefined ? '' : `  (similarity ${h.similarity.toFixed(2)})`;
  const head = `## ${oneLine(h.path)}:${h.startLine}-${h.endLine} ${h.kind} ${h.parent ? `${h.parent}.` : ''}${h.symbol}${similarity}`;
  if (shown === undefined) return head;
  return `${head}${textTruncated || shown !== text ? ' (first lines)' : ''}\n${fenced(shown, languageTag(h.path))}`;
}
