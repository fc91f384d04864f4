/** Tie-breaking priors of the final ranking, added to relevance for ordering only (tuned on the dev sets). */
export const RANKING_PRIORS = Object.freeze({
  /** For a file the task's own query found: later cycles search a drifted query, so their finds carry less evidence. */
  firstCycle: 0.06,
  /** For a file in a folder that holds a high result: a change rarely stays in one file, and its other files sit near it. */
  besideHigh: 0.08,
  /** Answers at or above this relevance (the related band) rank before context files; weaker answers after them. */
  answerFloor: 0.4,
});

/** What the ranking needs to know of a file. */
export interface RankedFacts {
  readonly path: string;
  readonly relevance: number;
  /** The cycle that first found the file. */
  readonly firstSeen: number;
  /**
   * Set for a file another judge (an agent, an LLM) scored: its relevance is taken as given, without the priors
   * (they were tuned on the built-in judge's continuous scores), and files it scored alike go by this value,
   * the built-in judge's relevance.
   */
  readonly tieBreak?: number;
  /** Context for an answer (found by gap-following), not an answer: it ranks after the answers. */
  readonly isContext?: boolean;
}

/**
 * The loop's final order: relevance plus small priors for near-ties (see {@link RANKING_PRIORS}), then path.
 * A file another judge scored goes by its relevance alone, then by the built-in judge's (`tieBreak`). Context
 * files (gap-following) of the related band and above come after the answers there; below it, both go by score.
 * Relevance itself is left as the evaluator and gap resolution gave it.
 */
export function rankFiles<T>(items: readonly T[], o: { readonly highThreshold: number; readonly key: (item: T) => RankedFacts }): T[] {
  const facts = new Map(items.map((item) => [item, o.key(item)]));
  const highPerFolder = new Map<string, number>();
  for (const f of facts.values()) if (f.relevance >= o.highThreshold) highPerFolder.set(folderOf(f.path), (highPerFolder.get(folderOf(f.path)) ?? 0) + 1);
  const score = (f: RankedFacts): number => {
    const othersHighHere = (highPerFolder.get(folderOf(f.path)) ?? 0) - (f.relevance >= o.highThreshold ? 1 : 0);
    if (f.tieBreak !== undefined) return f.relevance;
    return f.relevance + (f.firstSeen === 1 ? RANKING_PRIORS.firstCycle : 0) + (othersHighHere > 0 ? RANKING_PRIORS.besideHigh : 0);
  };
  const scores = new Map([...facts].map(([item, f]) => [item, score(f)]));
  const tie = (item: T): number => facts.get(item)!.tieBreak ?? 0;
  // Answers of the related band and above, then context files of that band, then everything weaker: gap-following
  // adds context for the answers, and it must not push an answer out of the first places. A context file judged
  // below the band (a definition the judge called irrelevant) is no better than a weak answer: it goes by score.
  const tier = (item: T): number => {
    const f = facts.get(item)!;
    return f.relevance < RANKING_PRIORS.answerFloor ? 2 : f.isContext ? 1 : 0;
  };
  return [...items].sort((a, b) => tier(a) - tier(b) || scores.get(b)! - scores.get(a)! || tie(b) - tie(a) || facts.get(a)!.path.localeCompare(facts.get(b)!.path));
}


/** The folder part of a root-relative path, with its trailing slash ('' at the root). */
export function folderOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/') + 1);
}
