import { describe, expect, it } from 'vitest';
import type { CandidateChunk, CandidateFile } from '../../../src/retrieve/evaluator.js';
import { cycleFeatures, FEATURE_NAMES, type FeatureName } from '../../../src/retrieve/file-features.js';
import { contentTerms } from '../../../src/retrieve/terms.js';

const chunk = (o: Partial<CandidateChunk> & { text: string }): CandidateChunk => ({
  rowId: 1, chunkId: 'c', symbol: 'x', kind: 'function', parent: null, signature: '', startLine: 1, endLine: 2,
  taskSimilarity: 0.3, taskLexical: 0, rank: 0, origin: 'search', ...o,
});

const throttle: CandidateFile = {
  path: 'src/http/middleware/throttle.ts',
  chunks: [
    chunk({ chunkId: 'a', symbol: 'throttle', text: 'import { TokenBucket } from "../../util";\nexport function throttle(bucket: TokenBucket) { return limit(bucket); }', taskSimilarity: 0.62, taskLexical: 0.4, rank: 3 }),
    chunk({ chunkId: 'b', symbol: 'ThrottleOptions', kind: 'interface', text: 'interface ThrottleOptions { burst: number }', taskSimilarity: 0.5, taskLexical: 1, rank: 1 }),
  ],
};
const bucket: CandidateFile = {
  path: 'src/util/index.ts',
  chunks: [chunk({ chunkId: 'c', symbol: 'index', kind: 'module', text: 'export * from "./token-bucket";', taskSimilarity: 0.3, taskLexical: 0, rank: 9, origin: 'definition' })],
};
const spec: CandidateFile = { path: 'src/http/middleware/rate.test.ts', chunks: [chunk({ chunkId: 'd', text: 'import { throttle } from "./throttle";\nit("limits requests")', taskSimilarity: 0.4, rank: 5, origin: 'usage' })] };

const ctx = {
  calibration: { mean: 0.2, std: 0.1 },
  idf: (w: string) => (w === 'limit' ? 3 : 1),
  taskTerms: contentTerms('limit the requests of each client'), // limit, requests, per, client -> stems
  learnedTerms: contentTerms('throttle bucket'),
  cycle: 2,
};

function features(file: CandidateFile): Record<FeatureName, number> {
  const all = cycleFeatures([throttle, bucket, spec], new Map([[throttle.path, 0.81], [bucket.path, 0.2]]), ctx);
  const x = all.get(file.path)!;
  expect(x).toHaveLength(FEATURE_NAMES.length);
  return Object.fromEntries(FEATURE_NAMES.map((n, i) => [n, x[i]!])) as Record<FeatureName, number>;
}

describe('cycleFeatures', () => {
  it('similarity, z-score and lexical evidence, absolute and behind the cycle\'s best', () => {
    const f = features(throttle);
    expect(f.heuristic).toBe(0.81);
    expect(f.maxSim).toBeCloseTo(0.62, 10);
    expect(f.maxZ).toBeCloseTo(4.2, 10);
    expect(f.simBehind).toBe(0);
    expect(f.top2Sim).toBeCloseTo(0.56, 10);
    expect(f.maxLex).toBe(1);
    expect(f.lexBehind).toBe(0);
    const b = features(bucket);
    expect(b.simBehind).toBeCloseTo(0.32, 10);
    expect(b.lexBehind).toBe(1);
    expect(b.heuristic).toBe(0.2);
    expect(features(spec).heuristic).toBe(0);
  });

  it('term coverage by IDF weight: anywhere in the file, in one chunk, in names, in the path, and of learned terms', () => {
    expect(contentTerms('limit the requests of each client').map((t) => t.word)).toEqual(['limit', 'requests', 'client']);
    const f = features(throttle); // "limit" (idf 3) is in chunk a only; requests and client are nowhere
    expect(f.coverage).toBeCloseTo(3 / 5, 10);
    expect(f.bestChunkCoverage).toBeCloseTo(3 / 5, 10);
    expect(f.nameCoverage).toBe(0);
    expect(f.pathCoverage).toBe(0);
    expect(f.learnedCoverage).toBe(1); // throttle and bucket both occur
    const s = features(spec); // "limits" stems to limit; "requests" too
    expect(s.coverage).toBeCloseTo(4 / 5, 10);
    expect(features(bucket).learnedCoverage).toBeCloseTo(1 / 2, 10); // "bucket" from token-bucket
  });

  it('counts, ranks, path kinds, chunk kinds and where the chunks came from', () => {
    const f = features(throttle);
    expect(f.chunksHit).toBeCloseTo(Math.log1p(2), 10);
    expect(f.bestRank).toBeCloseTo(Math.log1p(1), 10);
    expect([f.isTest, f.isDoc, f.isIndexFile, f.onlyNonSymbol]).toEqual([0, 0, 0, 0]);
    expect([f.kindFunction, f.kindClass, f.kindType, f.kindConst]).toEqual([0, 0, 1, 0]); // best: interface (0.5 + 1)
    expect([f.fromSearch, f.onlyDefinition, f.onlyUsage, f.laterCycle]).toEqual([1, 0, 0, 1]);
    expect(f.taskTerms).toBeCloseTo(Math.log1p(3), 10);
    expect(f.pathDepth).toBeCloseTo(Math.log1p(3), 10);
    const b = features(bucket);
    expect([b.isIndexFile, b.onlyNonSymbol, b.onlyDefinition, b.fromSearch]).toEqual([1, 1, 1, 0]);
    const s = features(spec);
    expect([s.isTest, s.onlyUsage, s.kindFunction]).toEqual([1, 1, 1]);
  });

  it('places within the cycle, folder peers, and import links to the files the hand-tuned judge calls strong', () => {
    const t = features(throttle);
    const b = features(bucket);
    const s = features(spec);
    expect([t.simRank, s.simRank, b.simRank]).toEqual([0, Math.log1p(1), Math.log1p(2)]);
    expect([t.lexRank, b.lexRank, s.lexRank]).toEqual([0, Math.log1p(1), Math.log1p(1)]); // ties share the better place
    expect([t.heuristicRank, b.heuristicRank, s.heuristicRank]).toEqual([0, Math.log1p(1), Math.log1p(2)]);
    expect(t.meanSim).toBeCloseTo(0.56, 10);
    expect([t.folderPeers, s.folderPeers, b.folderPeers]).toEqual([Math.log1p(1), Math.log1p(1), 0]);
    expect([t.strongPeers, s.strongPeers]).toEqual([0, Math.log1p(1)]); // throttle (0.81) is strong; the spec is not
    expect([b.importedByStrong, s.importedByStrong, t.importedByStrong]).toEqual([1, 0, 0]); // "../../util" is src/util/index.ts
    expect([s.importsStrong, t.importsStrong, b.importsStrong]).toEqual([1, 0, 0]); // the spec imports the throttle
  });
});
