import { identifierTerms, splitIdentifier } from '../chunk/identifiers.js';
import type { Evaluation } from './evaluator.js';
import type { ResolvedTask } from './task.js';
import { contentTerms, isNoiseWord, stem } from './terms.js';

/** The query of one cycle, as the trace shows it. */
export interface CycleQuery {
  readonly text: string;
  readonly keywords: readonly string[];
  /** Directories where high-relevance files live (searched in addition, never instead). */
  readonly patterns: readonly string[];
  /** Files judged irrelevant (< 0.2), left out of later cycles. */
  readonly excludes: readonly string[];
  /** Gaps to close: definitions and task terms no high result covers. */
  readonly focusAreas: readonly string[];
}

/** A chunk of a high-relevance file, as refine reads it. */
export interface HighChunk {
  readonly path: string;
  readonly symbol: string;
  readonly parent: string | null;
  readonly text: string;
}

/** What refine hands to the next cycle. */
export interface Refinement {
  readonly query: CycleQuery;
  /** Terms learned this cycle: the code base's own words for the task. */
  readonly newTerms: string[];
  /** Paths newly excluded this cycle. */
  readonly excluded: string[];
  /** Gaps found this cycle (become focus areas). */
  readonly gaps: string[];
  /** Symbol names to look up directly (definitions the high results reference). */
  readonly lookupSymbols: string[];
  /** Text to embed for the expansion part of the next query vector (gap terms + new keywords). */
  readonly expansionText: string;
}

/** Limits of what one refinement adds. */
export const REFINE_LIMITS = Object.freeze({ newTerms: 6, patterns: 5, excludes: 200, focusAreas: 8, lookups: 6 });

/** Below this relevance a file is irrelevant: excluded from later cycles, and not counted as progress. */
export const LOW_RELEVANCE = 0.2;

/**
 * Pure: from this cycle's evaluations to the next query. New keywords are the terms most distinctive of the
 * high-relevance chunks against the whole index (document frequency in the high set × IDF); patterns are
 * their directories; files under 0.2 are excluded; gaps become focus areas and direct symbol lookups.
 */
export function refine(o: {
  task: ResolvedTask;
  query: CycleQuery;
  evaluations: readonly Evaluation[];
  highChunks: readonly HighChunk[];
  highThreshold: number;
  idf: (word: string) => number;
}): Refinement {
  const { task, query } = o;
  const high = o.evaluations.filter((e) => e.relevance >= o.highThreshold);
  const known = new Set(contentTerms([task.text, ...query.keywords].join(' ')).map((t) => t.stem));
  const newTerms = distinctiveTerms(o.highChunks, known, o.idf).slice(0, REFINE_LIMITS.newTerms);
  const patterns = unique([...query.patterns, ...high.map((e) => dirGlob(e.path)).filter((g) => g !== null)]).slice(0, REFINE_LIMITS.patterns);
  const excluded = o.evaluations
    .filter((e) => e.relevance < LOW_RELEVANCE && !query.excludes.includes(e.path))
    .map((e) => e.path);
  const excludes = unique([...query.excludes, ...excluded]).slice(0, REFINE_LIMITS.excludes);
  const gaps = unique(high.flatMap((e) => e.missingContext)).slice(0, REFINE_LIMITS.focusAreas);
  const lookupSymbols = gaps
    .filter((g) => g.startsWith('definition of '))
    .map((g) => g.slice('definition of '.length))
    .slice(0, REFINE_LIMITS.lookups);
  const gapWords = gaps.filter((g) => g.startsWith('term "')).map((g) => g.slice(6, -1));
  const keywords = unique([...query.keywords, ...newTerms]);
  return {
    query: { text: query.text, keywords, patterns, excludes, focusAreas: gaps },
    newTerms,
    excluded,
    gaps,
    lookupSymbols,
    expansionText: [...newTerms, ...lookupSymbols.flatMap(splitIdentifier), ...gapWords].join(' '),
  };
}

/** Terms common in the high chunks and rare in the index, best first; skips what the task already says. */
export function distinctiveTerms(chunks: readonly HighChunk[], knownStems: ReadonlySet<string>, idf: (word: string) => number): string[] {
  const df = new Map<string, number>();
  for (const c of chunks) {
    const terms = new Set([...identifierTerms(c.text), ...splitIdentifier(c.symbol), ...splitIdentifier(c.parent ?? '')]);
    for (const t of terms) df.set(t, (df.get(t) ?? 0) + 1);
  }
  const minDf = chunks.length >= 3 ? 2 : 1;
  const seenStems = new Set(knownStems);
  return [...df.entries()]
    .filter(([t, n]) => n >= minDf && t.length >= 3 && !isNoiseWord(t) && !/^\d/.test(t))
    .map(([t, n]) => ({ t, score: n * idf(t) }))
    .sort((a, b) => b.score - a.score || a.t.localeCompare(b.t))
    .filter(({ t }) => {
      const s = stem(t);
      if (seenStems.has(s)) return false;
      seenStems.add(s);
      return true;
    })
    .map(({ t }) => t);
}

function dirGlob(path: string): string | null {
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? null : `${path.slice(0, slash)}/**`;
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}
