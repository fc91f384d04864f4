import { identifierTerms, splitIdentifier } from '../chunk/identifiers.js';
import type { CodeIndex } from '../code-index.js';
import type { LexicalHit } from '../store/catalog-types.js';
import { calibrate, VectorSample } from './calibration.js';
import { createBuiltinEvaluator, type BuiltinJudge } from './builtin-evaluator.js';
import { JUDGE_MODEL } from './judge-model.js';
import type { RankingModel } from './ranking-model.js';
import { dispatch, LOOP_TUNING, toCandidates, type DispatchedChunk } from './dispatch.js';
import type { CandidateFile, Evaluation, EvaluationContext, Evaluator } from './evaluator.js';
import { definedNames, definitionName, resolveDefinitionGaps, resolveUsages } from './gaps.js';
import { mergeEvaluations, refreshFiles, roleOf, toResultFile, topChunks, type FileState } from './file-state.js';
import { checkJudgements, namedDefinitions, type Judgement } from './judgements.js';
import { combineQueryVector } from './query-vector.js';
import { rankFiles } from './rank-files.js';
import { compilePathGlobs } from './path-globs.js';
import { LOW_RELEVANCE, refine, type CycleQuery, type HighChunk } from './refine.js';
import type { CycleTrace, ResultFile, RetrievalResult, StopReason } from './retrieval-result.js';
import { resolveTask, type ResolvedTask, type Task } from './task.js';
import { contentTerms } from './terms.js';

/** Options of {@link startRetrieval}. */
export interface RetrievalSessionOptions {
  /** Chunks fetched per cycle before grouping by file. */
  chunksPerCycle?: number;
  /** Lower bound of the `related` band. */
  relatedThreshold?: number;
  /** The built-in judge whose verdicts are the hints (and the answer when nobody else judges). */
  builtinJudge?: BuiltinJudge;
  /** Attach each hint's features (`Evaluation.features`), e.g. to dump training rows. */
  withFeatures?: boolean;
  /** The learned judge's model (default: the one shipped with codescout). */
  model?: RankingModel;
}

/** A file of the current cycle, with the built-in judge's opinion as a hint. */
export interface SessionCandidate extends CandidateFile {
  /** The built-in evaluator's judgement of this file: a hint for the judge, and the verdict if it says nothing. */
  readonly hint: Evaluation;
  /** The judge's best relevance for this file in an earlier cycle, when it judged it before. */
  readonly previous?: { readonly relevance: number; readonly cycle: number };
}

/** What {@link RetrievalSession.judge} did. */
export interface JudgeStep {
  /** The cycle whose candidates are current now (the one just judged when the loop stopped). */
  readonly cycle: number;
  readonly done: boolean;
  /** Set once the loop has stopped. */
  readonly stoppedBecause?: StopReason;
}


const samples = new WeakMap<CodeIndex, VectorSample>();

/** The built-in judge used unless a caller picks one. */
export const DEFAULT_BUILTIN_JUDGE: BuiltinJudge = 'learned';

/**
 * Starts a stepwise retrieval: runs the first DISPATCH and the built-in judge (as hints) and returns the
 * session, whose caller judges each cycle's candidates. `retrieve()` is a loop over this session.
 * @throws ConfigError for a bad task (empty text, bad globs or numbers).
 * @example
 * const s = await startRetrieval(index, { text: 'add rate limiting to the API endpoints' });
 * while (!s.isDone) await s.judge(s.candidates().map((c) => myJudge(c)));
 * const { results } = await s.result();
 */
export async function startRetrieval(index: CodeIndex, task: Task, options: RetrievalSessionOptions = {}): Promise<RetrievalSession> {
  const t = resolveTask(task);
  const embedder = await index.embedder();
  const taskVector = await embedder.embedQuery([t.text, ...t.keywords].join(' '));
  const session = new RetrievalSession(index, t, taskVector, options);
  await session.readTaskEvidence();
  await session.dispatchCycle();
  return session;
}

/**
 * One retrieval in progress: DISPATCH -> EVALUATE (by the caller, with the built-in judge's hints) -> REFINE ->
 * LOOP. Holds copies of the chunk rows it has seen, so an index that changes between steps cannot corrupt it.
 */
export class RetrievalSession {
  /** The cycle whose candidates are current (1-based). */
  cycle = 0;
  private stopReason: StopReason | undefined;
  private current: SessionCandidate[] = [];
  private scored: DispatchedChunk[] = [];
  private started = 0;
  private readonly files = new Map<string, FileState>();
  /** The catalog generation when the session started. */
  private startGeneration = 0;
  private readonly cycles: CycleTrace[] = [];
  private readonly idfCache = new Map<string, number>();
  private builtin!: Evaluator;
  private taskLexical!: { hits: LexicalHit[]; paths: ReadonlyMap<number, string>; words: ReadonlySet<string>; scores: Map<number, number> };
  private totalChunks = 1;
  private query: CycleQuery;
  private vector: Float32Array;
  private lookups: string[] = [];
  private usages: { names: string[]; definedIn: Set<string> } = { names: [], definedIn: new Set() };

  /** @internal Use {@link startRetrieval}. */
  constructor(
    private readonly index: CodeIndex,
    readonly task: ResolvedTask,
    private readonly taskVector: Float32Array,
    private readonly options: RetrievalSessionOptions,
  ) {
    this.query = { text: task.text, keywords: task.keywords, patterns: [], excludes: [], focusAreas: task.focusAreas };
    this.vector = taskVector;
  }

  /**
   * @internal Reads what every cycle is judged against, once: the index's size and generation, the similarity
   * calibration, and the lexical evidence for the original task (within the task's own patterns and excludes, so
   * cycle 1, which searches the same text, reuses the list).
   */
  async readTaskEvidence(): Promise<void> {
    const { catalog, revision } = this.index.store;
    const task = this.task;
    let sample = samples.get(this.index);
    if (!sample) samples.set(this.index, (sample = new VectorSample()));
    const [vectors, chunkCount, generation, hits] = await Promise.all([
      sample.get(catalog, revision),
      catalog.chunkCount(),
      catalog.generation(),
      catalog.lexicalSearch([task.text, ...task.keywords].join(' '), {
        k: LOOP_TUNING.taskLexicalDepth,
        accept: compilePathGlobs(task.patterns, task.excludes),
      }),
    ]);
    this.totalChunks = Math.max(1, chunkCount);
    this.startGeneration = generation;
    this.builtin = createBuiltinEvaluator({
      judge: this.options.builtinJudge ?? DEFAULT_BUILTIN_JUDGE,
      withFeatures: this.options.withFeatures,
      model: this.options.model ?? JUDGE_MODEL,
      ctx: {
        calibration: calibrate(this.taskVector, vectors),
        idf: (w) => this.idf(w),
        definedElsewhere: async (names, path) => [...(await this.definitionPaths(names)).entries()].filter(([, paths]) => paths.some((p) => p !== path)).map(([n]) => n),
      },
    });
    const best = hits[0]?.score ?? 0;
    this.taskLexical = {
      hits,
      paths: await catalog.rowPaths(hits.map((h) => h.rowId)),
      words: new Set((`${task.text} ${task.keywords.join(' ')}`.match(/[\p{L}\p{N}_]+/gu) ?? []).flatMap((w) => [w.toLowerCase(), ...splitIdentifier(w)])),
      scores: new Map(hits.map((h) => [h.rowId, best > 0 ? h.score / best : 0])),
    };
  }

  /** True once the loop has stopped; {@link result} is final then. */
  get isDone(): boolean {
    return this.stopReason !== undefined;
  }

  /** Why the loop stopped, once it has. */
  get stoppedBecause(): StopReason | undefined {
    return this.stopReason;
  }

  /** The current cycle's files with their chunks (text, lines, symbol) and the built-in judge's hint. */
  candidates(): readonly SessionCandidate[] {
    return this.isDone ? [] : this.current;
  }

  /** What the loop has learned so far: the context an evaluator gets with the candidates. */
  context(): EvaluationContext {
    return { cycle: this.cycle, learnedTerms: this.query.keywords.filter((k) => !this.task.keywords.includes(k)), focusAreas: this.query.focusAreas };
  }

  /**
   * EVALUATE with the caller's judgements (files it leaves out keep the hint), then REFINE and, unless the loop
   * stops, the next DISPATCH.
   * @throws ConfigError naming the path or field of a bad judgement (not a candidate, relevance outside 0..1),
   *   or when the session has already stopped.
   */
  async judge(judgements: readonly Judgement[]): Promise<JudgeStep> {
    const checked = checkJudgements({ judgements, candidates: this.current, cycle: this.cycle, isDone: this.isDone });
    const evaluations = await Promise.all(checked.map(async (e) => ({
      ...e,
      missingContext: await namedDefinitions(e.missingContext, (names) => this.definitionPaths(names)),
    })));
    const judged = new Set(evaluations.map((e) => e.path));
    const hinted = this.current.filter((c) => !judged.has(c.path)).map((c) => c.hint);
    const unseen = this.current.filter((c) => !this.files.has(c.path)).length;
    const newFiles = this.mergeAll(evaluations, true) + this.mergeAll(hinted, false);
    for (const c of this.current) {
      const f = this.files.get(c.path)!;
      f.hint = Math.max(f.hint, c.hint.relevance);
    }
    const next = await this.refineAndStop({ newFiles, unseen });
    if (next) {
      await this.nextVector(next);
      await this.dispatchCycle();
    }
    return { cycle: this.cycle, done: this.isDone, ...(this.stopReason ? { stoppedBecause: this.stopReason } : {}) };
  }

  /** The answer so far (final once {@link isDone}): results >= the high threshold, related, the cycle trace. */
  async result(): Promise<RetrievalResult> {
    const t = this.task;
    const { catalog } = this.index.store;
    // The index changed during the session (the watcher runs): name no deleted file, show current line ranges.
    // Every time from then on: a cycle dispatched before the change may bring back what it removed.
    if ((await catalog.generation()) !== this.startGeneration) await refreshFiles(this.files, catalog);
    const ranked = rankFiles([...this.files.values()], {
      highThreshold: t.highThreshold,
      key: (f) => ({ path: f.evaluation.path, relevance: f.evaluation.relevance, firstSeen: f.firstSeen, tieBreak: f.judged ? f.hint : undefined, isContext: roleOf(f, t.highThreshold) === 'context' }),
    });
    const relatedThreshold = this.options.relatedThreshold ?? LOOP_TUNING.relatedThreshold;
    let shown = ranked.filter((f) => f.evaluation.relevance >= relatedThreshold);
    // Never an empty answer while the loop saw candidates: with no file in the related band (a task for something
    // the code base does not have yet), its nearest files stand in — the best few of the tangential band, with the
    // relevance they were judged, so the bands keep their meaning.
    if (shown.length === 0) shown = ranked.filter((f) => f.evaluation.relevance >= LOW_RELEVANCE).slice(0, LOOP_TUNING.nearMisses);
    // A definition the answer already holds is not missing: its file is right there.
    const held = new Set(shown.flatMap((f) => [...f.chunks.values()].map((c) => c.row.symbol)));
    const toResult = (f: FileState) => withoutHeld(toResultFile(f, t.highThreshold), held);
    return {
      results: shown.filter((f) => f.evaluation.relevance >= t.highThreshold).map(toResult),
      related: shown.filter((f) => f.evaluation.relevance < t.highThreshold).map(toResult),
      cycles: [...this.cycles],
      stoppedBecause: this.stopReason ?? 'max-cycles',
    };
  }

  /** @internal DISPATCH of the next cycle, then the built-in judge's hints for its candidates. */
  async dispatchCycle(): Promise<void> {
    this.cycle++;
    this.started = performance.now();
    const { catalog, revision } = this.index.store;
    const scored = await dispatch({
      index: this.index, t: this.task, query: this.query, vector: this.vector, lookups: this.lookups, usages: this.usages,
      chunksPerCycle: this.options.chunksPerCycle ?? LOOP_TUNING.chunksPerCycle, taskLexical: this.taskLexical,
    });
    // A file the judge called irrelevant never comes back (gap look-ups and user searches may find it again).
    this.scored = scored.filter((s) => {
      const f = this.files.get(s.row.path);
      return !(f?.judged && f.evaluation.relevance < LOW_RELEVANCE);
    });
    const [vectors] = await Promise.all([
      catalog.vectorsForRows(this.scored.map((s) => s.row.rowId), revision),
      // The judge reads the IDF of the task's and the learned terms: looked up in one batch before it runs.
      this.primeIdf([...contentTerms([this.task.text, ...this.task.keywords].join(' ')), ...contentTerms(this.context().learnedTerms.join(' '))].map((t) => t.word)),
    ]);
    const candidates = toCandidates(this.scored, this.taskVector, vectors, this.taskLexical.scores);
    const hints = new Map((await this.builtin.evaluate(this.task, candidates, this.context())).map((e) => [e.path, e]));
    this.current = candidates.map((c) => {
      const f = this.files.get(c.path);
      const hint = hints.get(c.path) ?? { path: c.path, relevance: 0, reason: 'Not judged by the built-in evaluator.', missingContext: [] };
      return { ...c, hint, ...(f?.judged ? { previous: { relevance: f.evaluation.relevance, cycle: f.cycle } } : {}) };
    });
  }

  /** Gap resolution, REFINE, the trace line and the stop decision of the cycle just judged. */
  private async refineAndStop({ newFiles, unseen }: { newFiles: number; unseen: number }): Promise<{ highRows: number[]; excludedRows: number[]; expansionText: string } | undefined> {
    const t = this.task;
    const files = this.files;
    const { critical: criticalGaps } = await resolveDefinitionGaps({
      files: new Map([...files].map(([p, f]) => [p, f.evaluation])),
      highThreshold: t.highThreshold,
      definitionPaths: (names) => this.definitionPaths(names),
    });
    // Follow high results to their users (where a throttle is registered, who calls the parser).
    const highDefs = new Map<string, string>();
    for (const f of files.values()) {
      if (f.evaluation.relevance < t.highThreshold) continue;
      for (const name of definedNames([...f.chunks.values()].map((c) => c.row))) if (!highDefs.has(name)) highDefs.set(name, f.evaluation.path);
    }
    resolveUsages({
      files: [...files.values()].filter((f) => !(f.judged && f.evaluation.relevance < LOW_RELEVANCE)).map((f) => Object.assign(f.evaluation, { texts: [...f.chunks.values()].map((c) => c.row.text) })),
      names: highDefs,
      highThreshold: t.highThreshold,
    });
    const ranked = [...files.values()].sort((a, b) => b.evaluation.relevance - a.evaluation.relevance);
    const high = ranked.filter((f) => f.evaluation.relevance >= t.highThreshold);
    const feedback = high.length > 0 ? high : ranked.filter((f) => f.evaluation.relevance >= 0.5).slice(0, 3);
    const highChunks: HighChunk[] = feedback.flatMap((f) =>
      topChunks(f, 3).map(({ row }) => ({ path: row.path, symbol: row.symbol, parent: row.parent, text: row.text })),
    );
    await this.primeIdf(highChunks.flatMap((c) => [...identifierTerms(c.text), ...splitIdentifier(c.symbol), ...splitIdentifier(c.parent ?? '')]));
    const refinement = refine({ task: t, query: this.query, evaluations: ranked.map((f) => f.evaluation), highChunks, highThreshold: t.highThreshold, idf: (w) => this.idf(w) });
    this.cycles.push({
      n: this.cycle, query: this.query, hits: this.scored.length, high: high.length, newTerms: refinement.newTerms,
      excluded: refinement.excluded, gaps: refinement.gaps, newFiles, ms: Math.round(performance.now() - this.started),
    });
    if (high.length >= t.minHigh && criticalGaps.length === 0) this.stopReason = 'enough';
    // No progress: nothing new the judge kept, and either something high is already in hand or nothing new was found.
    else if (this.cycle > 1 && newFiles === 0 && (high.length > 0 || unseen === 0)) this.stopReason = 'no-progress';
    else if (this.cycle >= t.maxCycles) this.stopReason = 'max-cycles';
    if (this.isDone) return undefined;
    const highRows = feedback.slice(0, 5).flatMap((f) => topChunks(f, 2).map((c) => c.row.rowId));
    const excludedRows = ranked.filter((f) => f.evaluation.relevance < LOW_RELEVANCE).slice(0, 10).flatMap((f) => [...f.chunks.values()].slice(0, 1).map((c) => c.row.rowId));
    this.query = refinement.query;
    this.lookups = criticalGaps;
    this.usages = { names: [...highDefs.keys()], definedIn: new Set(highDefs.values()) };
    return { highRows, excludedRows, expansionText: refinement.expansionText.trim() };
  }

  /** REFINE -> the next query vector from the task, the high hits, and the learned terms and gaps. */
  private async nextVector(o: { highRows: number[]; excludedRows: number[]; expansionText: string }): Promise<void> {
    const { catalog, revision } = this.index.store;
    const embedder = await this.index.embedder();
    const [high, excluded] = await Promise.all([catalog.vectorsForRows(o.highRows, revision), catalog.vectorsForRows(o.excludedRows, revision)]);
    this.vector = combineQueryVector({
      task: this.taskVector,
      high: high.map((r) => r.vector),
      expansion: o.expansionText ? await embedder.embedQuery(o.expansionText) : undefined,
      excluded: excluded.map((r) => r.vector),
    });
  }


  private mergeAll(evaluations: readonly Evaluation[], byJudge: boolean): number {
    const chunkHints = new Map(this.current.flatMap((c) => Object.entries(c.hint.chunkRelevance ?? {})));
    return mergeEvaluations({ files: this.files, evaluations, byJudge, scored: this.scored, chunkHints, cycle: this.cycle });
  }

  private definitionPaths(names: readonly string[]): Promise<Map<string, string[]>> {
    return this.index.store.catalog.symbolPaths(names, 200);
  }

  /**
   * Looks up the document frequencies of many words in one query (refine asks for hundreds at once), before the
   * synchronous judge and refine read them through {@link idf}.
   */
  private async primeIdf(words: Iterable<string>): Promise<void> {
    const missing = [...new Set([...words].map((w) => w.toLowerCase()))].filter((w) => !this.idfCache.has(w));
    if (missing.length === 0) return;
    for (const [w, df] of await this.index.store.catalog.documentFrequencies(missing)) this.idfCache.set(w, Math.log(1 + this.totalChunks / (1 + df)));
  }

  /** IDF of a word primed by {@link primeIdf}; a word nobody primed is a bug in the session, not a rare word. */
  private idf(word: string): number {
    const idf = this.idfCache.get(word.toLowerCase());
    if (idf === undefined) throw new Error(`The IDF of "${word}" was read before it was looked up (RetrievalSession.primeIdf).`);
    return idf;
  }
}

/** The file without `definition of X` gaps whose X a file of the answer defines. */
function withoutHeld(f: ResultFile, held: ReadonlySet<string>): ResultFile {
  const missingContext = f.missingContext.filter((m) => {
    const name = definitionName(m);
    return name === null || !held.has(name);
  });
  return missingContext.length === f.missingContext.length ? f : { ...f, missingContext };
}
