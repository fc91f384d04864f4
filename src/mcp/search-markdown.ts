import type { Hit } from '../types.js';
import { fenced, languageTag, oneLine } from './markdown.js';
import type { BudgetedHit } from './token-budget.js';

/**
 * The hits of `search_code` as Markdown for an agent: a summary line, then per hit, best first, a heading
 * (`path:startLine-endLine kind symbol`, similarity) and its code when the budget bought it.
 */
export function renderSearchHits(hits: readonly BudgetedHit<Hit>[], o: { tokenBudget: number; tokensUsed: number; truncated: boolean }): string {
  if (hits.length === 0) return 'No hits.';
  const cut = o.truncated ? '; some hits were cut or left without code to fit (a larger tokenBudget shows more)' : '';
  const parts = [`${hits.length} hit${hits.length === 1 ? '' : 's'}, best first. Code: ${o.tokensUsed} of ${o.tokenBudget} tokens${cut}.`];
  for (const { hit: h, text, textTruncated } of hits) {
    const similarity = h.similarity === undefined ? '' : `  (similarity ${h.similarity.toFixed(2)})`;
    const head = `## ${oneLine(h.path)}:${h.startLine}-${h.endLine} ${h.kind} ${h.parent ? `${h.parent}.` : ''}${h.symbol}${similarity}`;
    parts.push(text === undefined ? head : `${head}${textTruncated ? ' (first lines)' : ''}\n${fenced(text, languageTag(h.path))}`);
  }
  return parts.join('\n\n');
}
