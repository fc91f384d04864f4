import { describe, expect, it } from 'vitest';
import { FEATURE_NAMES } from '../../../src/retrieve/file-features.js';
import { JUDGE_MODEL } from '../../../src/retrieve/judge-model.js';
import { calibrated, checkModel, rawScore, type RankingModel } from '../../../src/retrieve/ranking-model.js';

// Two stumps over features 0 and 1: x0 <= 0.5 ? -1 : 1, then x1 <= 2 ? 0.25 : -0.25.
const tiny: RankingModel = {
  version: 't', features: [...FEATURE_NAMES], bias: 0.5, trainedOn: 'test',
  trees: [
    [[0, 0.5, 1, 2], [-1], [1]],
    [[1, 2, 1, 2], [0.25], [-0.25]],
  ],
  calibration: { score: [-1, 0, 2], relevance: [0.05, 0.3, 0.9] },
};
const x = (a: number, b: number): number[] => FEATURE_NAMES.map((_, i) => (i === 0 ? a : i === 1 ? b : 0));

describe('RankingModel', () => {
  it('sums the leaves each tree reaches (value <= threshold goes left) plus the bias', () => {
    expect(rawScore(tiny, x(0.5, 2))).toBe(0.5 - 1 + 0.25);
    expect(rawScore(tiny, x(0.51, 2.01))).toBe(0.5 + 1 - 0.25);
  });

  it('calibrates linearly between knots and flat beyond them, staying in 0..1', () => {
    expect(calibrated(tiny, -5)).toBe(0.05);
    expect(calibrated(tiny, -0.5)).toBeCloseTo(0.175, 10);
    expect(calibrated(tiny, 1)).toBeCloseTo(0.6, 10);
    expect(calibrated(tiny, 9)).toBe(0.9);
  });

  it('refuses a model trained on other features', () => {
    expect(() => checkModel({ ...tiny, features: ['maxSim', ...FEATURE_NAMES.slice(1)] })).toThrow('was trained on other features');
  });

  it('the shipped model matches this build, is small, scores deterministically, and its calibration is monotone in 0..1', () => {
    expect(() => checkModel(JUDGE_MODEL)).not.toThrow();
    expect(JSON.stringify(JUDGE_MODEL).length).toBeLessThan(1_000_000);
    const probe = FEATURE_NAMES.map((_, i) => ((i * 37) % 11) / 10);
    expect(rawScore(JUDGE_MODEL, probe)).toBe(rawScore(JUDGE_MODEL, probe));
    const { relevance } = JUDGE_MODEL.calibration;
    for (let i = 1; i < relevance.length; i++) expect(relevance[i]!).toBeGreaterThanOrEqual(relevance[i - 1]!);
    expect(Math.min(...relevance)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...relevance)).toBeLessThanOrEqual(1);
  });
});
