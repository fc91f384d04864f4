import { referencedNames } from '../chunk/references.js';
import { detectLanguage } from '../discover/languages-by-extension.js';
import type { CandidateChunk, CandidateFile, Evaluation, EvaluationContext, Evaluator } from './evaluator.js';
import type { ResolvedTask } from './task.js';
import { chunkStems, contentTerms, nameStems, type TaskTerm } from './terms.js';

/**
 * How similar a random chunk of this index is to the task: the mean and spread of cosine similarity over a
 * sample of the index's own vectors. A candidate's similarity is read as a z-score against it, so the same
 * number means the same thing on a small fixture and on a 50k-chunk repository.
 */
export interface SimilarityCalibration {
  readonly mean: number;
  readonly std: number;
}

/** What the default evaluator knows besides the candidates. */
export interface DefaultEvaluatorContext {
  readonly calibration: SimilarityCalibration;
  /** Inverse document frequency of a lower-case word in the index (higher = rarer). */
  readonly idf: (word: string) => number;
  /** Identifiers referenced by a chunk whose definitions are indexed elsewhere: (names) -> defined names. */
  readonly definedElsewhere: (names: readonly string[], path: string) => Promise<string[]>;
}

/** Weights and knees of the default evaluator, documented in README ("How relevance is calibrated"). */
export const EVALUATOR_TUNING = Object.freeze({
  /** z-score at which vector evidence starts to count, and the z-score at which it is full. */
  zFloor: 1,
  zFull: 4,
  /** Similarity above the index mean (offset) where "close" starts, and the span to full closeness. */
  closeOffset: 0.05,
  closeSpan: 0.35,
  vectorWeight: 0.5,
  /** BM25 for the original task, relative to the best chunk's. */
  bm25Weight: 0.3,
  /** IDF-weighted share of the task's terms the chunk contains. */
  lexicalWeight: 0.2,
  /** Weight of a learned term (the code base's word for the task) relative to a task term. */
  learnedTermWeight: 0.5,
  /** Extra for task terms found in the symbol name or path, on top of the body coverage. */
  nameBonus: 0.1,
  /** Chunks that are not symbols (module glue, line windows, markdown) and tests weigh a little less. */
  nonSymbolFactor: 0.9,
  testFactor: 0.85,
  /** A second and third matching chunk in the same file add a little. */
  extraChunkBonus: 0.03,
});

/** Chunk kinds that are not symbols: module glue, line windows, markdown sections. */
export const NON_SYMBOL_KINDS: ReadonlySet<string> = new Set(['module', 'text', 'section']);
/** Paths of test files. */
export const TEST_PATH =
  /(^|\/)(__tests__|tests?|spec|e2e)(\/|$)|\.(test|spec)\.[cm]?[jt]sx?$|(^|\/)test_[^/]*\.py$|_test\.(py|go|rb|cc|cpp)$|_spec\.rb$|[A-Za-z0-9](Tests?|Spec)\.(java|kt|cs|scala|swift)$/;

/**
 * The deterministic default evaluator: calibrated similarity to the original task, IDF-weighted coverage of
 * the task's terms (split identifiers, stems), name and path matches, and structural signals.
 */
export function createDefaultEvaluator(ctx: DefaultEvaluatorContext): Evaluator {
  return {
    async evaluate(task: ResolvedTask, files: readonly CandidateFile[], context?: EvaluationContext): Promise<Evaluation[]> {
      const own = contentTerms([task.text, ...task.keywords].join(' ')).map((t) => ({ ...t, weight: 1 }));
      const ownStems = new Set(own.map((t) => t.stem));
      const learned = contentTerms((context?.learnedTerms ?? []).join(' '))
        .filter((t) => !ownStems.has(t.stem))
        .map((t) => ({ ...t, weight: EVALUATOR_TUNING.learnedTermWeight }));
      const terms = [...own, ...learned];
      const mentionsTests = own.some((t) => /^(test|spec)/.test(t.stem));
      const judged = files.map((file) => evaluateFile({ file, terms, ctx, mentionsTests }));
      // The definitions of every file are looked up together: one round of questions to the index per cycle.
      return Promise.all(judged.map(async ({ evaluation, referenced }) => {
        if (referenced.length === 0) return evaluation;
        const missingDefinitions = (await ctx.definedElsewhere(referenced, evaluation.path)).map((n) => `definition of ${n}`);
        return { ...evaluation, missingContext: [...missingDefinitions, ...evaluation.missingContext] };
      }));
    },
  };
}

interface ChunkJudgement {
  readonly chunk: CandidateChunk;
  readonly relevance: number;
  readonly z: number;
  readonly matched: WeightedTerm[];
  readonly nameMatched: WeightedTerm[];
}

/** A task term with its weight (1 for the task's own words, less for learned ones). */
type WeightedTerm = TaskTerm & { readonly weight: number };

/** A file's evaluation without its missing definitions, and the names it references (looked up by the caller). */
function evaluateFile(o: { file: CandidateFile; terms: WeightedTerm[]; ctx: DefaultEvaluatorContext; mentionsTests: boolean }): { evaluation: Evaluation; referenced: string[] } {
  const { file, terms, ctx } = o;
  const T = EVALUATOR_TUNING;
  const w = (t: WeightedTerm): number => t.weight * ctx.idf(t.word);
  const totalIdf = terms.reduce((s, t) => s + w(t), 0) || 1;
  const isTest = TEST_PATH.test(file.path) && !o.mentionsTests;
  const judged: ChunkJudgement[] = file.chunks.map((chunk) => {
    const z = (chunk.taskSimilarity - ctx.calibration.mean) / (ctx.calibration.std || 1);
    // Both must hold: the chunk stands out from this index's chunks (z), and it is close in absolute terms
    // (a top hit for "bake sourdough bread" stands out in a code base yet is not close to anything).
    const standsOut = clamp01((z - T.zFloor) / (T.zFull - T.zFloor));
    const close = clamp01((chunk.taskSimilarity - ctx.calibration.mean - T.closeOffset) / T.closeSpan);
    const vector = standsOut * close;
    const stems = chunkStems({ text: chunk.text, symbol: chunk.symbol, parent: chunk.parent, path: file.path });
    const names = nameStems({ symbol: chunk.symbol, parent: chunk.parent, path: file.path });
    const matched = terms.filter((t) => stems.has(t.stem));
    const nameMatched = terms.filter((t) => names.has(t.stem));
    const coverage = matched.reduce((s, t) => s + w(t), 0) / totalIdf;
    const nameCoverage = nameMatched.reduce((s, t) => s + w(t), 0) / totalIdf;
    let relevance = T.vectorWeight * vector + T.bm25Weight * chunk.taskLexical + T.lexicalWeight * coverage + T.nameBonus * nameCoverage;
    if (NON_SYMBOL_KINDS.has(chunk.kind)) relevance *= T.nonSymbolFactor;
    if (isTest) relevance *= T.testFactor;
    return { chunk, relevance: clamp01(relevance), z, matched, nameMatched };
  });
  judged.sort((a, b) => b.relevance - a.relevance);
  const best = judged[0]!;
  const supporting = judged.slice(1, 3).filter((j) => j.relevance >= best.relevance * 0.6).length;
  const relevance = round2(clamp01(best.relevance + supporting * T.extraChunkBonus));
  const covered = new Set(judged.flatMap((j) => j.matched.map((t) => t.stem)));
  const uncovered = terms.filter((t) => t.weight === 1 && !covered.has(t.stem) && ctx.idf(t.word) > 1).map((t) => t.word);
  // A relevant file's references are its context: every chunk of it that matched counts, not only the best.
  const referenced = relevance >= 0.5 ? referencedIdentifiers(judged.map((j) => j.chunk), file.path) : [];
  const evaluation = {
    path: file.path,
    relevance,
    reason: describe(best, file.chunks.length),
    missingContext: uncovered.map((w) => `term "${w}"`),
    chunkRelevance: Object.fromEntries(judged.map((j) => [j.chunk.chunkId, round2(j.relevance)])),
  };
  return { evaluation, referenced };
}

function describe(best: ChunkJudgement, chunkCount: number): string {
  const name = `${best.chunk.parent ? `${best.chunk.parent}.` : ''}${best.chunk.symbol}`;
  const words = best.matched.map((t) => t.word);
  const parts = [`${best.chunk.kind} ${name} has similarity ${best.chunk.taskSimilarity.toFixed(2)} (z ${best.z.toFixed(1)})`];
  parts.push(words.length > 0 ? `matches ${words.slice(0, 5).join(', ')}` : 'matches no task term');
  if (best.nameMatched.length > 0) parts.push(`name matches ${best.nameMatched.map((t) => t.word).slice(0, 3).join(', ')}`);
  if (chunkCount > 1) parts.push(`${chunkCount} chunks hit`);
  return `${parts.join('; ')}.`;
}

/** Identifiers a file's chunks use that are probably defined elsewhere: calls, constructors, types, the language's qualified forms. */
export function referencedIdentifiers(chunks: readonly CandidateChunk[], path: string): string[] {
  const own = new Set(chunks.flatMap((c) => [c.symbol, c.parent ?? '']));
  const language = detectLanguage(path);
  const names = new Set(chunks.flatMap((c) => referencedNames(language, c.text)));
  return [...names].filter((n) => !own.has(n));
}

function clamp01(x: number): number {
  return Math.max(0, Math.min(1, x));
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
