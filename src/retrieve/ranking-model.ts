import { ConfigError } from '../errors.js';
import { FEATURE_NAMES } from './file-features.js';

/**
 * A learned ranking model as the training script writes it: gradient-boosted regression trees over the named
 * features (a sum of leaf values, the log-odds that a file is the answer), and an isotonic map from that score to
 * calibrated relevance. Evaluated here in plain TypeScript: no native dependency.
 */
export interface RankingModel {
  readonly version: string;
  readonly features: readonly string[];
  /** Each tree as flat nodes: [feature, threshold, left, right] for splits (go left when value <= threshold), [leaf value] for leaves. */
  readonly trees: ReadonlyArray<ReadonlyArray<readonly number[]>>;
  /** Added to the trees' sum. */
  readonly bias: number;
  /** Piecewise-linear calibration: raw score knots (ascending) and the relevance at each. */
  readonly calibration: { readonly score: readonly number[]; readonly relevance: readonly number[] };
  /** Where it was trained, for the record. */
  readonly trainedOn: string;
}

/**
 * Checks a model against this build's features.
 * @throws ConfigError naming what differs: a model trained on other features cannot score these.
 */
export function checkModel(model: RankingModel): RankingModel {
  const same = model.features.length === FEATURE_NAMES.length && model.features.every((f, i) => f === FEATURE_NAMES[i]);
  if (!same) throw new ConfigError(`The ranking model ${model.version} was trained on other features (${model.features.join(', ')}); retrain it with scripts/train/train-judge.py.`, 'model');
  const c = model.calibration;
  if (c.score.length === 0 || c.score.length !== c.relevance.length) throw new ConfigError(`The ranking model ${model.version} has no usable calibration.`, 'model');
  return model;
}

/** The model's raw score (log-odds) of one feature vector. */
export function rawScore(model: RankingModel, x: readonly number[]): number {
  let sum = model.bias;
  for (const tree of model.trees) {
    let i = 0;
    for (;;) {
      const node = tree[i]!;
      if (node.length === 1) {
        sum += node[0]!;
        break;
      }
      i = x[node[0]!]! <= node[1]! ? node[2]! : node[3]!;
    }
  }
  return sum;
}

/** Calibrated relevance (0..1) of a raw score: linear between the knots, flat beyond them. */
export function calibrated(model: RankingModel, score: number): number {
  const { score: xs, relevance: ys } = model.calibration;
  if (score <= xs[0]!) return ys[0]!;
  if (score >= xs[xs.length - 1]!) return ys[ys.length - 1]!;
  let lo = 0;
  let hi = xs.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! <= score) lo = mid;
    else hi = mid;
  }
  const t = (score - xs[lo]!) / (xs[hi]! - xs[lo]! || 1);
  return ys[lo]! + t * (ys[hi]! - ys[lo]!);
}
