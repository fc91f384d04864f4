import { NON_SYMBOL_KINDS, TEST_PATH, type SimilarityCalibration } from './default-evaluator.js';
import { folderOf } from './rank-files.js';
import type { CandidateFile } from './evaluator.js';
import { chunkStems, nameStems, type TaskTerm } from './terms.js';

/**
 * The evidence the learned judge scores a candidate file from, in a fixed order (the model file names them and
 * is refused when they differ). Similarities are cosine; lexical scores are relative to the cycle's best chunk.
 */
export const FEATURE_NAMES = Object.freeze([
  'heuristic', // the hand-tuned judge's relevance of the file
  'maxSim', // best cosine similarity of a chunk to the task
  'maxZ', // the same as a z-score against a sample of this index's chunks
  'simBehind', // how far the file's best similarity is behind the cycle's best candidate
  'top2Sim', // mean of the two best chunk similarities
  'maxLex', // best BM25 of a chunk for the task, relative to the best chunk of the task
  'lexBehind', // how far the file's best BM25 is behind the cycle's best candidate
  'coverage', // IDF-weighted share of the task's terms found anywhere in the file's chunks
  'bestChunkCoverage', // the same within the best-covered chunk
  'nameCoverage', // IDF-weighted share of the task's terms in symbol, parent or path names
  'pathCoverage', // ... in the file path alone
  'learnedCoverage', // IDF-weighted share of the learned terms found in the file
  'chunksHit', // log(1 + chunks of the file the cycle found)
  'bestRank', // log(1 + rank of the file's best chunk in the cycle's fused search)
  'isTest',
  'isDoc', // markdown or other non-code text
  'isIndexFile', // index.* / mod.* barrels that re-export others
  'onlyNonSymbol', // no chunk is a symbol (module glue, line windows)
  'kindFunction', // kind of the best chunk
  'kindClass',
  'kindType',
  'kindConst',
  'fromSearch', // found by the cycle's main search
  'onlyDefinition', // found only as the definition a high file uses
  'onlyUsage', // found only as a user of a high file's names
  'laterCycle', // found in cycle 2 or later
  'taskTerms', // log(1 + content terms of the task)
  'pathDepth', // log(1 + folders above the file)
  'simRank', // log(1 + place of the file among the cycle's candidates by best similarity)
  'lexRank', // ... by best BM25
  'heuristicRank', // ... by the hand-tuned relevance
  'meanSim', // mean similarity of the file's chunks
  'folderPeers', // log(1 + other candidates in the same folder)
  'strongPeers', // log(1 + other candidates in the same folder the hand-tuned judge puts at 0.5 or more)
  'importedByStrong', // a candidate at 0.5 or more imports this file (relative import)
  'importsStrong', // this file imports a candidate at 0.5 or more
] as const);

/** Name of one feature. */
export type FeatureName = (typeof FEATURE_NAMES)[number];

/** What the features of one cycle's files share. */
export interface FeatureContext {
  readonly calibration: SimilarityCalibration;
  /** Inverse document frequency of a lower-case word in the index. */
  readonly idf: (word: string) => number;
  /** The task's own content terms and the learned ones. */
  readonly taskTerms: readonly TaskTerm[];
  readonly learnedTerms: readonly TaskTerm[];
  readonly cycle: number;
}

const DOC_PATH = /\.(md|mdx|markdown|txt|rst)$/i;
const INDEX_FILE = /(^|\/)(index|mod)\.[cm]?[jt]sx?$/;

/** Strong: the hand-tuned judge puts a file at this relevance or more (for the relational features). */
const STRONG = 0.5;

/** Pure: the features of every file of one cycle, in {@link FEATURE_NAMES} order, given each file's heuristic relevance. */
export function cycleFeatures(files: readonly CandidateFile[], heuristic: ReadonlyMap<string, number>, ctx: FeatureContext): Map<string, number[]> {
  const sims = files.map((f) => Math.max(...f.chunks.map((c) => c.taskSimilarity)));
  const lexs = files.map((f) => Math.max(...f.chunks.map((c) => c.taskLexical)));
  const heur = files.map((f) => heuristic.get(f.path) ?? 0);
  const simRanks = ranks(sims);
  const lexRanks = ranks(lexs);
  const heurRanks = ranks(heur);
  const folders = files.map((f) => folderOf(f.path));
  const strong = new Set(files.filter((_, i) => heur[i]! >= STRONG).map((f) => f.path));
  const imports = new Map(files.map((f) => [f.path, importedPaths(f)]));
  const importedByStrong = new Set([...strong].flatMap((p) => [...imports.get(p)!]));
  const bestSim = Math.max(0, ...sims);
  const bestLex = Math.max(0, ...lexs);
  const weight = (t: TaskTerm): number => ctx.idf(t.word);
  const totalTask = ctx.taskTerms.reduce((s, t) => s + weight(t), 0) || 1;
  const totalLearned = ctx.learnedTerms.reduce((s, t) => s + weight(t), 0) || 1;
  const out = new Map<string, number[]>();
  files.forEach((file, i) => {
    const chunkStemSets = file.chunks.map((c) => chunkStems({ text: c.text, symbol: c.symbol, parent: c.parent, path: file.path }));
    const nameSets = file.chunks.map((c) => nameStems({ symbol: c.symbol, parent: c.parent, path: file.path }));
    const pathStems = nameStems({ symbol: '', parent: null, path: file.path });
    const share = (terms: readonly TaskTerm[], total: number, has: (s: string) => boolean): number =>
      terms.filter((t) => has(t.stem)).reduce((s, t) => s + weight(t), 0) / total;
    const byChunk = chunkStemSets.map((set) => share(ctx.taskTerms, totalTask, (s) => set.has(s)));
    const sortedSims = file.chunks.map((c) => c.taskSimilarity).sort((a, b) => b - a);
    const best = file.chunks.reduce((a, b) => (b.taskSimilarity + b.taskLexical > a.taskSimilarity + a.taskLexical ? b : a));
    const origins = new Set(file.chunks.map((c) => c.origin));
    const values: Record<FeatureName, number> = {
      heuristic: heuristic.get(file.path) ?? 0,
      maxSim: sims[i]!,
      maxZ: (sims[i]! - ctx.calibration.mean) / (ctx.calibration.std || 1),
      simBehind: bestSim - sims[i]!,
      top2Sim: (sortedSims[0]! + (sortedSims[1] ?? sortedSims[0]!)) / 2,
      maxLex: lexs[i]!,
      lexBehind: bestLex - lexs[i]!,
      coverage: share(ctx.taskTerms, totalTask, (s) => chunkStemSets.some((set) => set.has(s))),
      bestChunkCoverage: Math.max(0, ...byChunk),
      nameCoverage: share(ctx.taskTerms, totalTask, (s) => nameSets.some((set) => set.has(s))),
      pathCoverage: share(ctx.taskTerms, totalTask, (s) => pathStems.has(s)),
      learnedCoverage: ctx.learnedTerms.length === 0 ? 0 : share(ctx.learnedTerms, totalLearned, (s) => chunkStemSets.some((set) => set.has(s))),
      chunksHit: Math.log1p(file.chunks.length),
      bestRank: Math.log1p(Math.min(...file.chunks.map((c) => c.rank))),
      isTest: TEST_PATH.test(file.path) ? 1 : 0,
      isDoc: DOC_PATH.test(file.path) ? 1 : 0,
      isIndexFile: INDEX_FILE.test(file.path) ? 1 : 0,
      onlyNonSymbol: file.chunks.every((c) => NON_SYMBOL_KINDS.has(c.kind)) ? 1 : 0,
      kindFunction: best.kind === 'function' || best.kind === 'method' ? 1 : 0,
      kindClass: best.kind === 'class' ? 1 : 0,
      kindType: best.kind === 'interface' || best.kind === 'type' || best.kind === 'enum' ? 1 : 0,
      kindConst: best.kind === 'const' || best.kind === 'export' ? 1 : 0,
      fromSearch: origins.has('search') ? 1 : 0,
      onlyDefinition: origins.size === 1 && origins.has('definition') ? 1 : 0,
      onlyUsage: origins.size === 1 && origins.has('usage') ? 1 : 0,
      laterCycle: ctx.cycle > 1 ? 1 : 0,
      taskTerms: Math.log1p(ctx.taskTerms.length),
      pathDepth: Math.log1p(file.path.split('/').length - 1),
      simRank: Math.log1p(simRanks[i]!),
      lexRank: Math.log1p(lexRanks[i]!),
      heuristicRank: Math.log1p(heurRanks[i]!),
      meanSim: file.chunks.reduce((a, c) => a + c.taskSimilarity, 0) / file.chunks.length,
      folderPeers: Math.log1p(folders.filter((d, j) => j !== i && d === folders[i]).length),
      strongPeers: Math.log1p(files.filter((g, j) => j !== i && folders[j] === folders[i] && strong.has(g.path)).length),
      importedByStrong: importedByStrong.has(withoutExtension(file.path)) ? 1 : 0,
      importsStrong: [...imports.get(file.path)!].some((p) => [...strong].some((s) => s !== file.path && withoutExtension(s) === p)) ? 1 : 0,
    };
    out.set(file.path, FEATURE_NAMES.map((n) => values[n]));
  });
  return out;
}

/** 0-based places of values sorted high to low (ties share the better place). */
function ranks(values: readonly number[]): number[] {
  const sorted = [...values].sort((a, b) => b - a);
  return values.map((v) => sorted.indexOf(v));
}

function withoutExtension(path: string): string {
  return path.replace(/\.[cm]?[jt]sx?$/, '').replace(/\/index$/, '');
}

/** Root-relative paths (without extension) of a file's relative imports and re-exports, as its chunks show them. */
export function importedPaths(file: CandidateFile): Set<string> {
  const out = new Set<string>();
  const dir = folderOf(file.path).split('/').filter((p) => p !== '');
  for (const c of file.chunks) {
    for (const m of c.text.matchAll(/(?:from|import|require\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const parts = [...dir];
      for (const seg of m[1]!.split('/')) {
        if (seg === '..') parts.pop();
        else if (seg !== '.' && seg !== '') parts.push(seg);
      }
      out.add(withoutExtension(parts.join('/')));
    }
  }
  return out;
}
