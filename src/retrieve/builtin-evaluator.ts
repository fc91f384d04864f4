import { createDefaultEvaluator, type DefaultEvaluatorContext } from './default-evaluator.js';
import type { CandidateFile, Evaluation, EvaluationContext, Evaluator } from './evaluator.js';
import { cycleFeatures, FEATURE_NAMES } from './file-features.js';
import { calibrated, rawScore, type RankingModel } from './ranking-model.js';
import type { ResolvedTask } from './task.js';
import { contentTerms } from './terms.js';

/** Which built-in judge scores files: the learned ranking model, or the hand-tuned formula. */
export type BuiltinJudge = 'learned' | 'heuristic';

/**
 * How the learned judge's relevance is made: the model's calibrated score, shrunk toward the hand-tuned formula's
 * relevance (which is also one of the model's features). The trees fit the 20 training repositories more closely
 * than a new code base rewards; halfway between the two won or tied on every dev set, where either alone lost one
 * (tuned on the dev sets: bench/RESULTS.md, "the learned judge, blended").
 */
export const LEARNED_JUDGE_TUNING = Object.freeze({ modelWeight: 0.5 });

/**
 * The built-in judge. Both kinds run the hand-tuned formula (its reason, missing context and chunk order are
 * kept); `learned` replaces the file's relevance with the model's calibrated score blended with the formula's
 * ({@link LEARNED_JUDGE_TUNING}); both are calibrated to the bands, so the blend keeps their meaning. Features are computed only for the model, or when `withFeatures` asks to attach them (training dumps):
 * the default loop does not pay for them.
 */
export function createBuiltinEvaluator(o: { judge: BuiltinJudge; model: RankingModel; ctx: DefaultEvaluatorContext; withFeatures?: boolean }): Evaluator {
  const heuristic = createDefaultEvaluator(o.ctx);
  return {
    async evaluate(task: ResolvedTask, files: readonly CandidateFile[], context: EvaluationContext): Promise<Evaluation[]> {
      const base = await heuristic.evaluate(task, files, context);
      if (o.judge === 'heuristic' && !o.withFeatures) return base;
      const own = contentTerms([task.text, ...task.keywords].join(' '));
      const ownStems = new Set(own.map((t) => t.stem));
      const learnedTerms = contentTerms(context.learnedTerms.join(' ')).filter((t) => !ownStems.has(t.stem));
      const features = cycleFeatures(files, new Map(base.map((e) => [e.path, e.relevance])), {
        calibration: o.ctx.calibration, idf: o.ctx.idf, taskTerms: own, learnedTerms, cycle: context.cycle,
      });
      return base.map((e) => {
        const x = features.get(e.path)!;
        const named = o.withFeatures ? { features: Object.fromEntries(FEATURE_NAMES.map((n, i) => [n, x[i]!])) } : {};
        if (o.judge === 'heuristic') return { ...e, ...named };
        const w = LEARNED_JUDGE_TUNING.modelWeight;
        const relevance = Math.round((w * calibrated(o.model, rawScore(o.model, x)) + (1 - w) * e.relevance) * 100) / 100;
        // Chunks keep the formula's order, scaled to the file's new relevance.
        const top = Math.max(1e-9, ...Object.values(e.chunkRelevance ?? {}));
        const chunkRelevance = Object.fromEntries(Object.entries(e.chunkRelevance ?? {}).map(([id, r]) => [id, Math.round((relevance * r) / top * 100) / 100]));
        return { ...e, ...named, relevance, chunkRelevance, reason: `${e.reason} Learned judge: ${relevance.toFixed(2)}.` };
      });
    },
  };
}
