import { identifierTerms, splitIdentifier } from '../chunk/identifiers.js';
import type { CodeIndex } from '../code-index.js';
import type { ChunkRow, LexicalHit } from '../store/catalog-types.js';
import { calibrate, VectorSample } from './calibration.js';
import { createDefaultEvaluator } from './default-evaluator.js';
import type { CandidateChunk, CandidateFile, EvaluateFn, Evaluation, Evaluator } from './evaluator.js';
import { HYBRID_POOL, type ScoredChunk } from './hybrid-search.js';
import { expandLexicalList } from './lexical-expansion.js';
import { rankFiles } from './rank-files.js';
import { definedNames, resolveDefinitionGaps, resolveUsages, type GapFile } from './gaps.js';
import { combineQueryVector, dot } from './query-vector.js';
import { compilePathGlobs } from './path-globs.js';
import { LOW_RELEVANCE, refine, type CycleQuery, type HighChunk } from './refine.js';
import type { CycleTrace, ResultFile, RetrievalResult, StopReason } from './retrieval-result.js';
import { resolveTask, type ResolvedTask, type Task } from './task.js';

/** Options of {@link retrieve}. */
export interface RetrieveOptions {
  /** Replaces the default evaluator (an LLM, a cross-encoder); may be async. */
  evaluate?: EvaluateFn | Evaluator;
  /** Chunks fetched per cycle before grouping by file. */
  chunksPerCycle?: number;
  /** Lower bound of the `related` band. */
  relatedThreshold?: number;
}

/** Tuning of the loop's dispatch. */
export const LOOP_TUNING = Object.freeze({ chunksPerCycle: 40, patternChunks: 12, usageChunks: 8, relatedThreshold: 0.4, taskLexicalDepth: 200, learnedLexicalTerms: 4 });

const samples = new WeakMap<CodeIndex, VectorSample>();

/** Best evidence so far for one file. */
interface FileState {
  /** Mutable copy of the best evaluation: gap resolution may raise it and trim its missing context. */
  evaluation: GapFile & { chunkRelevance?: Evaluation['chunkRelevance'] };
  cycle: number;
  /** The cycle that first found the file: 1 means the task's own query found it. */
  firstSeen: number;
  chunks: Map<string, { row: ChunkRow; relevance: number }>;
}

/**
 * The iterative retrieval loop: DISPATCH (hybrid search) -> EVALUATE (relevance, reason, missing context per
 * file) -> REFINE (learned terms, patterns, excludes, gaps, expanded query vector) -> LOOP, at most maxCycles;
 * stops early with at least minHigh files >= highThreshold and no critical gap, or when a cycle adds nothing.
 * @throws ConfigError for a bad task (empty text, bad globs or numbers).
 * @example
 * const { results, cycles } = await retrieve(index, { text: 'add rate limiting to the API endpoints' });
 */
export async function retrieve(index: CodeIndex, task: Task, options: RetrieveOptions = {}): Promise<RetrievalResult> {
  const t = resolveTask(task);
  const { catalog, revision } = index.store;
  const embedder = await index.embedder();
  const taskVector = await embedder.embedQuery([t.text, ...t.keywords].join(' '));
  let sample = samples.get(index);
  if (!sample) samples.set(index, (sample = new VectorSample()));
  const calibration = calibrate(taskVector, sample.get(catalog, revision));
  const totalChunks = Math.max(1, catalog.chunkCount());
  const idfCache = new Map<string, number>();
  /** Looks up the document frequencies of many words in one query (refine asks for hundreds at once). */
  const primeIdf = (words: Iterable<string>): void => {
    const missing = [...new Set([...words].map((w) => w.toLowerCase()))].filter((w) => !idfCache.has(w));
    for (const [w, df] of catalog.documentFrequencies(missing)) idfCache.set(w, Math.log(1 + totalChunks / (1 + df)));
  };
  const idf = (word: string): number => {
    const w = word.toLowerCase();
    if (!idfCache.has(w)) primeIdf([w]);
    return idfCache.get(w)!;
  };
  const evaluator = toEvaluator(
    options.evaluate ??
      createDefaultEvaluator({
        calibration,
        idf,
        definedElsewhere: (names, path) => [...definitionPaths(names).entries()].filter(([, paths]) => paths.some((p) => p !== path)).map(([n]) => n),
      }),
  );

  // Lexical evidence for the original task, once: every cycle's candidates are judged against it.
  // Within the task's own patterns and excludes, so cycle 1 (which searches the same text) reuses the list.
  const taskHits = catalog.lexicalSearch([t.text, ...t.keywords].join(' '), {
    k: LOOP_TUNING.taskLexicalDepth,
    accept: compilePathGlobs(t.patterns, t.excludes),
  });
  const taskPaths = catalog.rowPaths(taskHits.map((h) => h.rowId));
  const taskWords = new Set(
    (`${t.text} ${t.keywords.join(' ')}`.match(/[\p{L}\p{N}_]+/gu) ?? []).flatMap((w) => [w.toLowerCase(), ...splitIdentifier(w)]),
  );
  const bestBm25 = taskHits[0]?.score ?? 0;
  const taskLexical = new Map(taskHits.map((h) => [h.rowId, bestBm25 > 0 ? h.score / bestBm25 : 0]));
  const files = new Map<string, FileState>();
  const definitionPaths = (names: readonly string[]): Map<string, string[]> => catalog.symbolPaths(names, 200);
  const cycles: CycleTrace[] = [];
  let query: CycleQuery = { text: t.text, keywords: t.keywords, patterns: [], excludes: [], focusAreas: t.focusAreas };
  let vector = taskVector;
  let lookups: string[] = [];
  let usages: { names: string[]; definedIn: Set<string> } = { names: [], definedIn: new Set() };
  let stoppedBecause: StopReason = 'max-cycles';

  for (let n = 1; n <= t.maxCycles; n++) {
    const started = performance.now();
    const scored = await dispatch({
      index, t, query, vector, lookups, usages, chunksPerCycle: options.chunksPerCycle ?? LOOP_TUNING.chunksPerCycle,
      taskLexical: { hits: taskHits, paths: taskPaths, words: taskWords },
    });
    const candidates = toCandidates(scored, taskVector, catalog.vectorsForRows(scored.map((s) => s.row.rowId), revision), taskLexical);
    const learnedTerms = query.keywords.filter((k) => !t.keywords.includes(k));
    const evaluations = await evaluator.evaluate(t, candidates, { cycle: n, learnedTerms, focusAreas: query.focusAreas });
    const newFiles = merge({ files, evaluations, candidates: scored, cycle: n });
    const gapView = new Map([...files].map(([p, f]) => [p, f.evaluation]));
    const { critical: criticalGaps } = resolveDefinitionGaps({ files: gapView, highThreshold: t.highThreshold, definitionPaths });
    // Follow high results to their users (where a throttle is registered, who calls the parser).
    const highDefs = new Map<string, string>();
    for (const f of files.values()) {
      if (f.evaluation.relevance < t.highThreshold) continue;
      for (const name of definedNames([...f.chunks.values()].map((c) => c.row))) if (!highDefs.has(name)) highDefs.set(name, f.evaluation.path);
    }
    resolveUsages({
      files: [...files.values()].map((f) => Object.assign(f.evaluation, { texts: [...f.chunks.values()].map((c) => c.row.text) })),
      names: highDefs,
      highThreshold: t.highThreshold,
    });
    const ranked = [...files.values()].sort((a, b) => b.evaluation.relevance - a.evaluation.relevance);
    const high = ranked.filter((f) => f.evaluation.relevance >= t.highThreshold);
    const highChunks: HighChunk[] = (high.length > 0 ? high : ranked.filter((f) => f.evaluation.relevance >= 0.5).slice(0, 3)).flatMap((f) =>
      [...f.chunks.values()].sort((a, b) => b.relevance - a.relevance).slice(0, 3).map(({ row }) => ({ path: row.path, symbol: row.symbol, parent: row.parent, text: row.text })),
    );
    primeIdf(highChunks.flatMap((c) => [...identifierTerms(c.text), ...splitIdentifier(c.symbol), ...splitIdentifier(c.parent ?? '')]));
    const refinement = refine({ task: t, query, evaluations: ranked.map((f) => f.evaluation), highChunks, highThreshold: t.highThreshold, idf });
    cycles.push({
      n,
      query,
      hits: scored.length,
      high: high.length,
      newTerms: refinement.newTerms,
      excluded: refinement.excluded,
      gaps: refinement.gaps,
      newFiles,
      ms: Math.round(performance.now() - started),
    });
    if (high.length >= t.minHigh && criticalGaps.length === 0) {
      stoppedBecause = 'enough';
      break;
    }
    if (n > 1 && newFiles === 0) {
      stoppedBecause = 'no-progress';
      break;
    }
    if (n === t.maxCycles) break;
    // REFINE -> next query vector from the task, the high hits, and the learned terms and gaps.
    const feedback = high.length > 0 ? high : ranked.filter((f) => f.evaluation.relevance >= 0.5).slice(0, 3);
    const highRows = feedback.slice(0, 5).flatMap((f) => [...f.chunks.values()].sort((a, b) => b.relevance - a.relevance).slice(0, 2).map((c) => c.row.rowId));
    const excludedRows = ranked.filter((f) => f.evaluation.relevance < LOW_RELEVANCE).slice(0, 10).flatMap((f) => [...f.chunks.values()].slice(0, 1).map((c) => c.row.rowId));
    const expansion = refinement.expansionText.trim() ? await embedder.embedQuery(refinement.expansionText) : undefined;
    vector = combineQueryVector({
      task: taskVector,
      high: catalog.vectorsForRows(highRows, revision).map((r) => r.vector),
      expansion,
      excluded: catalog.vectorsForRows(excludedRows, revision).map((r) => r.vector),
    });
    query = refinement.query;
    lookups = criticalGaps;
    usages = { names: [...highDefs.keys()], definedIn: new Set(highDefs.values()) };
  }

  const ranked = rankFiles([...files.values()], {
    highThreshold: t.highThreshold,
    key: (f) => ({ path: f.evaluation.path, relevance: f.evaluation.relevance, firstSeen: f.firstSeen }),
  });
  const relatedThreshold = options.relatedThreshold ?? LOOP_TUNING.relatedThreshold;
  return {
    results: ranked.filter((f) => f.evaluation.relevance >= t.highThreshold).map(toResultFile),
    related: ranked.filter((f) => f.evaluation.relevance < t.highThreshold && f.evaluation.relevance >= relatedThreshold).map(toResultFile),
    cycles,
    stoppedBecause,
  };
}

/** DISPATCH: hybrid search with the current vector and terms (within the task's patterns, minus excludes), plus
 * a search inside learned patterns and direct lookups of gap symbols. */
async function dispatch(o: {
  index: CodeIndex;
  t: ResolvedTask;
  query: CycleQuery;
  vector: Float32Array;
  lookups: string[];
  usages: { names: string[]; definedIn: Set<string> };
  chunksPerCycle: number;
  /** The task's own lexical list (within its filter), the path of each row, and the task's words. */
  taskLexical: { hits: readonly LexicalHit[]; paths: ReadonlyMap<number, string>; words: ReadonlySet<string> };
}): Promise<ScoredChunk[]> {
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
    learned.length > 0 ? catalog.lexicalSearch(learned.join(' '), { k: LOOP_TUNING.taskLexicalDepth, maxTerms: LOOP_TUNING.learnedLexicalTerms }) : [];
  const unseen = learnedHits.map((h) => h.rowId).filter((id) => !o.taskLexical.paths.has(id));
  const paths = new Map([...o.taskLexical.paths, ...catalog.rowPaths(unseen)]);
  const lexicalHits = expandLexicalList({
    task: o.taskLexical.hits, learned: learnedHits, paths, accept, depth: Math.max(HYBRID_POOL, o.chunksPerCycle),
  });
  const main = await index.searchScored(lexicalText, { k: o.chunksPerCycle, mode: 'hybrid', vector, include: t.patterns, exclude, lexicalHits });
  const out = new Map(main.map((s) => [s.row.rowId, s]));
  if (query.patterns.length > 0) {
    const include = t.patterns.length > 0 ? t.patterns : query.patterns;
    // Vector only: the lexical list for this text was just ranked by the main search, and BM25 is the costly half.
    for (const s of await index.searchScored(lexicalText, { k: LOOP_TUNING.patternChunks, mode: 'vector', vector, include, exclude })) {
      if (!out.has(s.row.rowId)) out.set(s.row.rowId, s);
    }
  }
  if (o.usages.names.length > 0) {
    // Users of what the high results define, found by name (lexical), outside the files that define them.
    const users = await index.searchScored(o.usages.names.join(' '), {
      k: LOOP_TUNING.usageChunks,
      mode: 'lexical',
      include: t.patterns,
      exclude: [...t.excludes, ...o.usages.definedIn],
      wholeWordsOnly: true,
    });
    for (const s of users) if (!out.has(s.row.rowId)) out.set(s.row.rowId, s);
  }
  if (o.lookups.length > 0) {
    for (const row of catalog.getChunks(catalog.findSymbolRowIds(o.lookups, 12))) {
      // Definitions are looked up even in excluded files: the gap names them explicitly.
      if (!out.has(row.rowId) && !t.excludes.includes(row.path)) out.set(row.rowId, { row, score: 0 });
    }
  }
  return [...out.values()];
}

function toCandidates(
  scored: readonly ScoredChunk[],
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
      taskLexical: taskLexical.get(r.rowId) ?? 0, rank,
    });
    byFile.set(r.path, list);
  });
  return [...byFile.entries()].map(([path, chunks]) => ({ path, chunks }));
}

/** Keeps the best evaluation per file and the best relevance per chunk; returns files new with relevance >= 0.2. */
function merge(o: { files: Map<string, FileState>; evaluations: readonly Evaluation[]; candidates: readonly ScoredChunk[]; cycle: number }): number {
  const rowsByFile = new Map<string, ChunkRow[]>();
  for (const c of o.candidates) rowsByFile.set(c.row.path, [...(rowsByFile.get(c.row.path) ?? []), c.row]);
  let fresh = 0;
  for (const e of o.evaluations) {
    const relevance = Math.max(0, Math.min(1, Number.isFinite(e.relevance) ? e.relevance : 0));
    const evaluation = { ...e, relevance, missingContext: [...e.missingContext] };
    const state = o.files.get(e.path);
    if (!state) {
      if (relevance >= LOW_RELEVANCE) fresh++;
      o.files.set(e.path, { evaluation, cycle: o.cycle, firstSeen: o.cycle, chunks: new Map() });
    } else if (relevance > state.evaluation.relevance) {
      state.evaluation = evaluation;
      state.cycle = o.cycle;
    }
    const target = o.files.get(e.path)!;
    for (const row of rowsByFile.get(e.path) ?? []) {
      const r = e.chunkRelevance?.[row.chunkId] ?? relevance;
      const prev = target.chunks.get(row.chunkId);
      if (!prev || r > prev.relevance) target.chunks.set(row.chunkId, { row, relevance: r });
    }
  }
  return fresh;
}

function toResultFile(f: FileState): ResultFile {
  const chunks = [...f.chunks.values()]
    .sort((a, b) => b.relevance - a.relevance || a.row.startLine - b.row.startLine)
    .map(({ row, relevance }) => ({ symbol: row.symbol, kind: row.kind, parent: row.parent, startLine: row.startLine, endLine: row.endLine, relevance }));
  return {
    path: f.evaluation.path,
    relevance: f.evaluation.relevance,
    reason: f.evaluation.reason,
    chunks,
    missingContext: f.evaluation.missingContext,
    cycle: f.cycle,
  };
}

function toEvaluator(e: EvaluateFn | Evaluator): Evaluator {
  return typeof e === 'function' ? { evaluate: e } : e;
}
