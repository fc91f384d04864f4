import type { LexicalHit } from '../store/catalog-types.js';
import type { PathPredicate } from './path-globs.js';

/**
 * The BM25 list of "task text + learned terms" built from two cheaper lists. BM25 of an OR query is a sum
 * over its terms, so a chunk's score is its score for the task's words plus its score for the learned
 * words alone. The task's list (its common words are the costly part) is ranked once per task; each later
 * cycle only searches its learned terms. A chunk outside the task's list counts 0 for the task's words
 * (it ranked below the list's last entry there).
 */
export function expandLexicalList(o: {
  /** The task's own ranked list. */
  readonly task: readonly LexicalHit[];
  /** The ranked list of the learned terms alone. */
  readonly learned: readonly LexicalHit[];
  /** Path of every row of both lists (rows without one are dropped). */
  readonly paths: ReadonlyMap<number, string>;
  /** This cycle's path filter, applied to both lists. */
  readonly accept?: PathPredicate;
  readonly depth: number;
}): LexicalHit[] {
  const passes = (rowId: number): boolean => {
    const path = o.paths.get(rowId);
    return path !== undefined && (!o.accept || o.accept(path));
  };
  const scores = new Map<number, number>();
  for (const h of o.task) if (passes(h.rowId)) scores.set(h.rowId, h.score);
  for (const h of o.learned) if (passes(h.rowId)) scores.set(h.rowId, (scores.get(h.rowId) ?? 0) + h.score);
  return [...scores]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, o.depth)
    .map(([rowId, score]) => ({ rowId, score }));
}
