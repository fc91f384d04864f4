// Written by scripts/train/train-judge.py; do not edit by hand. Retrain: see scripts/train/README.md.
import type { RankingModel } from './ranking-model.js';

/** The learned judge shipped with codescout. */
export const JUDGE_MODEL: RankingModel = {
  version: 'untrained',
  features: [],
  trees: [],
  bias: 0,
  calibration: { score: [0], relevance: [0] },
  trainedOn: 'nothing yet',
};
