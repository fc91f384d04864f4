import type { CodeIndex } from '../code-index.js';
import type { LexicalHit } from '../store/catalog-types.js';
import type { CandidateChunk, CandidateFile, ChunkOrigin } from './evaluator.js';
import { HYBRID_POOL, type ScoredChunk } from './hybrid-search.js';
import { expandLexicalList } from './lexical-expansion.js';
import { compilePathGlobs } from './path-globs.js';
import { dot } from './query-vector.js';
import type { CycleQuery } from './refine.js';
import type { ResolvedTask } from './task.js';

/** Tuning of the loop's dispatch. */
export const LOOP_TUNING = Object.freeze({ chunksPerCycle: 40, patternChunks: 12, usageChunks: 8, relatedThreshold: 0.4, nearMisses: 5, taskLexicalDepth: 200, learnedLexicalTerms: 4 });

/** A chunk a cycle found, and which of the cycle's searches found it. */
export interface DispatchedChunk extends ScoredChunk {
  readonly origin: ChunkOrigin;
}

/** DISPATCH: hybrid search with the current vector and terms (within the task's patterns, minus excludes), plus
 * a search inside learned patterns and direct lookups of gap symbols. */
export async function dispatch(o: {
  index: CodeIndex;
  t: ResolvedTask;
  query: CycleQuery;
  vector: Float32Array;
  lookups: string[];
  usages: { names: string[]; definedIn: Set<string> };
  chunksPerCycle: number;
  /** The task's own lexical list (within its filter), the path of each row, and the task's words. */
  taskLexical: { hits: readonly LexicalHit[]; paths: ReadonlyMap<number, string>; words: ReadonlySet<string> };
}): Promise<DispatchedChunk[]> {
  const { index, t, query, vector } = o;
  const lexicalText = [query.text, ...query.keywords].join(' ');
  const exclude = [...t.excludes, ...query.excludes];
  const accept = compilePathGlobs(t.patterns, exclude);
  // The lexical list of task text + learned terms: the task's list (ranked once) plus a search of the learned terms.
  const learned = query.keywords.filter((k) => !o.taskLexical.words.has(k.toLowerCase()));
  const { catalog } = index.store;
  // Unfiltered, then filtered here by path: a filtered FTS search pages through many more ranked rows. Only the
  // rarest learned terms: the common ones cost most (long posting lists) and the vector expansion carries them.
  const learnedHits =
    learned.length > 0 ? await catalog.lexicalSearch(learned.join(' '), { k: LOOP_TUNING.taskLexicalDepth, maxTerms: LOOP_TUNING.learnedLexicalTerms }) : [];
  const unseen = learnedHits.map((h) => h.rowId).filter((id) => !o.taskLexical.paths.has(id));
  const paths = new Map([...o.taskLexical.paths, ...(await catalog.rowPaths(unseen))]);
  const lexicalHits = expandLexicalList({
    task: o.taskLexical.hits, learned: learnedHits, paths, accept, depth: Math.max(HYBRID_POOL, o.chunksPerCycle),
  });
  // The cycle's searches read the index only: asked together, merged below in a fixed order.
  const [main, inPatterns, users, definitions] = await Promise.all([
    index.searchScored(lexicalText, { k: o.chunksPerCycle, mode: 'hybrid', vector, include: t.patterns, exclude, lexicalHits }),
    // Vector only: the lexical list for this text is ranked by the main search, and BM25 is the costly half.
    query.patterns.length > 0
      ? index.searchScored(lexicalText, { k: LOOP_TUNING.patternChunks, mode: 'vector', vector, include: t.patterns.length > 0 ? t.patterns : query.patterns, exclude })
      : [],
    // Users of what the high results define, found by name (lexical), outside the files that define them.
    o.usages.names.length > 0
      ? index.searchScored(o.usages.names.join(' '), {
          k: LOOP_TUNING.usageChunks,
          mode: 'lexical',
          include: t.patterns,
          exclude: [...t.excludes, ...o.usages.definedIn],
          wholeWordsOnly: true,
        })
      : [],
    o.lookups.length > 0 ? catalog.findSymbolRowIds(o.lookups, 12).then((ids) => catalog.getChunks(ids)) : [],
  ]);
  const out = new Map<number, DispatchedChunk>(main.map((s) => [s.row.rowId, { ...s, origin: 'search' }]));
  for (const s of inPatterns) if (!out.has(s.row.rowId)) out.set(s.row.rowId, { ...s, origin: 'pattern' });
  for (const s of users) if (!out.has(s.row.rowId)) out.set(s.row.rowId, { ...s, origin: 'usage' });
  for (const row of definitions) {
    // Definitions are looked up even in excluded files: the gap names them explicitly.
    if (!out.has(row.rowId) && !t.excludes.includes(row.path)) out.set(row.rowId, { row, score: 0, origin: 'definition' });
  }
  return [...out.values()];
}

/** Groups a cycle's chunks by file, with each chunk's similarity and BM25 for the original task. */
export function toCandidates(
  scored: readonly DispatchedChunk[],
  taskVector: Float32Array,
  vectors: Array<{ rowId: number; vector: Float32Array }>,
  taskLexical: ReadonlyMap<number, number>,
): CandidateFile[] {
  const sims = new Map(vectors.map((v) => [v.rowId, dot(taskVector, v.vector)]));
  const byFile = new Map<string, CandidateChunk[]>();
  scored.forEach((s, rank) => {
    const r = s.row;
    const list = byFile.get(r.path) ?? [];
    list.push({
      rowId: r.rowId, chunkId: r.chunkId, symbol: r.symbol, kind: r.kind, parent: r.parent, signature: r.signature,
      startLine: r.startLine, endLine: r.endLine, text: r.text, taskSimilarity: sims.get(r.rowId) ?? 0,
      taskLexical: taskLexical.get(r.rowId) ?? 0, rank, origin: s.origin,
    });
    byFile.set(r.path, list);
  });
  return [...byFile.entries()].map(([path, chunks]) => ({ path, chunks }));
}
