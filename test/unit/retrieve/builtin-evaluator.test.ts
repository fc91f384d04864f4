import { describe, expect, it } from 'vitest';
import { createBuiltinEvaluator, LEARNED_JUDGE_TUNING } from '../../../src/retrieve/builtin-evaluator.js';
import type { CandidateChunk, CandidateFile } from '../../../src/retrieve/evaluator.js';
import { FEATURE_NAMES } from '../../../src/retrieve/file-features.js';
import { calibrated, rawScore, type RankingModel } from '../../../src/retrieve/ranking-model.js';
import { resolveTask } from '../../../src/retrieve/task.js';

// One stump on the hand-tuned relevance (feature 0), so the model and the formula disagree on purpose.
const model: RankingModel = {
  version: 't', features: [...FEATURE_NAMES], bias: 0, trainedOn: 'test',
  trees: [[[0, 0.5, 1, 2], [2], [-2]]],
  calibration: { score: [-2, 2], relevance: [0.1, 0.9] },
};

const chunk = (over: Partial<CandidateChunk>): CandidateChunk => ({
  rowId: 1, chunkId: 'c1', symbol: 'createThrottle', kind: 'function', parent: null, signature: 'function createThrottle()',
  startLine: 1, endLine: 9, text: 'export function createThrottle(limit: number) { return limit; }', taskSimilarity: 0.6,
  taskLexical: 1, rank: 0, origin: 'search', ...over,
});
const files: CandidateFile[] = [
  { path: 'src/http/throttle.ts', chunks: [chunk({})] },
  { path: 'src/misc/dates.ts', chunks: [chunk({ rowId: 2, chunkId: 'c2', symbol: 'parseDate', text: 'export function parseDate(s: string) {}', taskSimilarity: 0.1, taskLexical: 0, rank: 5 })] },
];
const ctx = { calibration: { mean: 0.1, std: 0.1 }, idf: () => 2, definedElsewhere: async () => [] };
const task = resolveTask({ text: 'throttle requests' });
const context = { cycle: 1, learnedTerms: [], focusAreas: [] };

describe('the built-in judges', () => {
  it('learned: the model\'s calibrated score blended with the formula\'s relevance by LEARNED_JUDGE_TUNING', async () => {
    const formula = await createBuiltinEvaluator({ judge: 'heuristic', model, ctx, withFeatures: true }).evaluate(task, files, context);
    const learned = await createBuiltinEvaluator({ judge: 'learned', model, ctx }).evaluate(task, files, context);
    const w = LEARNED_JUDGE_TUNING.modelWeight;
    expect(w).toBeGreaterThan(0);
    expect(w).toBeLessThan(1);
    for (const f of formula) {
      const x = FEATURE_NAMES.map((n) => f.features![n]!);
      const expected = Math.round((w * calibrated(model, rawScore(model, x)) + (1 - w) * f.relevance) * 100) / 100;
      const got = learned.find((e) => e.path === f.path)!;
      expect(got.relevance).toBe(expected);
      expect(got.relevance).not.toBe(f.relevance);
      expect(got.reason).toContain(`Learned judge: ${expected.toFixed(2)}`);
    }
    // The stump says the opposite of the formula, so the blend pulls the two files toward each other.
    const [hi, lo] = [formula[0]!, formula[1]!].sort((a, b) => b.relevance - a.relevance) as [(typeof formula)[number], (typeof formula)[number]];
    const spread = (e: typeof learned, a: string, b: string): number => e.find((x) => x.path === a)!.relevance - e.find((x) => x.path === b)!.relevance;
    expect(spread(learned, hi.path, lo.path)).toBeLessThan(spread(formula, hi.path, lo.path));
  });

  it("learned: a file's chunks keep the formula's order and proportions, the best one at the file's new relevance", async () => {
    const twoChunks: CandidateFile[] = [
      { path: 'src/http/throttle.ts', chunks: [chunk({}), chunk({ rowId: 3, chunkId: 'c3', symbol: 'limit', text: 'const limit = 10;', taskSimilarity: 0.3, taskLexical: 0.2, rank: 3 })] },
      files[1]!,
    ];
    const formula = await createBuiltinEvaluator({ judge: 'heuristic', model, ctx }).evaluate(task, twoChunks, context);
    const learned = await createBuiltinEvaluator({ judge: 'learned', model, ctx }).evaluate(task, twoChunks, context);
    const f = formula.find((e) => e.path === 'src/http/throttle.ts')!;
    const l = learned.find((e) => e.path === 'src/http/throttle.ts')!;
    expect(f.chunkRelevance!.c1!).toBeGreaterThan(f.chunkRelevance!.c3! + 0.1);
    expect(l.relevance).not.toBe(f.relevance);
    expect(l.chunkRelevance!.c1).toBe(l.relevance);
    // A lesser chunk stays the same share of the best one, so a shown chunk never drops a band on the shift alone.
    expect(l.chunkRelevance!.c3!).toBeCloseTo((l.relevance * f.chunkRelevance!.c3!) / f.chunkRelevance!.c1!, 2);
  });
});
