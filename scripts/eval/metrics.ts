/**
 * The eval README's metrics as pure functions. A system's answer is a ranked list of results (chunks with a
 * line range, or whole files); file-level metrics use its distinct paths in first-seen order.
 */
import type { DatasetKind, GoldEntry } from './dataset.js';

/** One ranked result: a chunk (with lines) or a whole file (without). */
export interface RankedResult {
  readonly path: string;
  readonly startLine?: number;
  readonly endLine?: number;
}

/** Scores of one task in one mode. */
export interface TaskScore {
  readonly answered: boolean;
  readonly recall1: number;
  readonly recall5: number;
  readonly recall10: number;
  readonly mrr10: number;
  /** doc2code only; null for commit2files. */
  readonly symbolHit10: number | null;
}

/** Distinct paths in first-seen order. */
export function distinctPaths(results: readonly RankedResult[]): string[] {
  return [...new Set(results.map((r) => r.path))];
}

/**
 * Recall@k over files. doc2code: 1 when any gold path is in the top k. commit2files: the fraction of the
 * distinct gold paths in the top k.
 */
export function recallAtK(o: { kind: DatasetKind; files: readonly string[]; gold: readonly GoldEntry[]; k: number }): number {
  const top = new Set(o.files.slice(0, o.k));
  const goldPaths = [...new Set(o.gold.map((g) => g.path))];
  if (goldPaths.length === 0) return 0;
  const found = goldPaths.filter((p) => top.has(p)).length;
  if (o.kind === 'doc2code') return found > 0 ? 1 : 0;
  return found / goldPaths.length;
}

/** 1 / rank of the first gold path within the top k files (default 10); 0 when none. */
export function reciprocalRank(files: readonly string[], gold: readonly GoldEntry[], k = 10): number {
  const goldPaths = new Set(gold.map((g) => g.path));
  const i = files.slice(0, k).findIndex((p) => goldPaths.has(p));
  return i === -1 ? 0 : 1 / (i + 1);
}

/**
 * 1 when one of the first k results (before reduction to files) has a gold path and a line range overlapping
 * the gold declaration's lines; a result without lines (a whole file) never hits.
 */
export function symbolHit(results: readonly RankedResult[], gold: readonly GoldEntry[], k = 10): number {
  const hit = results.slice(0, k).some((r) =>
    r.startLine !== undefined &&
    r.endLine !== undefined &&
    gold.some((g) => g.path === r.path && g.startLine !== undefined && g.endLine !== undefined && r.startLine! <= g.endLine && g.startLine <= r.endLine!),
  );
  return hit ? 1 : 0;
}

/** Every metric of one task. `results` are the chunk-level results (or files) in rank order. */
export function scoreTask(o: { kind: DatasetKind; results: readonly RankedResult[]; gold: readonly GoldEntry[] }): TaskScore {
  const files = distinctPaths(o.results);
  return {
    answered: o.results.length > 0,
    recall1: recallAtK({ kind: o.kind, files, gold: o.gold, k: 1 }),
    recall5: recallAtK({ kind: o.kind, files, gold: o.gold, k: 5 }),
    recall10: recallAtK({ kind: o.kind, files, gold: o.gold, k: 10 }),
    mrr10: reciprocalRank(files, o.gold, 10),
    symbolHit10: o.kind === 'doc2code' ? symbolHit(o.results, o.gold, 10) : null,
  };
}

/** Averages of one mode over all tasks. */
export interface ModeSummary {
  readonly tasks: number;
  readonly answered: number;
  readonly recall1: number;
  readonly recall5: number;
  readonly recall10: number;
  readonly mrr10: number;
  readonly symbolHit10: number | null;
  readonly meanCycles: number;
  /** Mean number of distinct files returned per task. */
  readonly meanFiles: number;
  readonly meanLatencyMs: number;
  readonly p95LatencyMs: number;
  /** Loop modes: after cycle i+1 (a stopped loop keeps its last answer), the mean pool recall, R@10 and MRR@10. */
  readonly perCycle?: ReadonlyArray<CycleScore>;
}

/** The loop's state after one cycle, averaged over tasks. */
export interface CycleScore {
  readonly cycle: number;
  /** Share of the gold files among all files evaluated so far (doc2code: any gold file). */
  readonly poolRecall: number;
  readonly recall10: number;
  readonly mrr10: number;
}

/** Per-cycle scores of one task: pool recall and the answer's R@10 / MRR@10 after each cycle, up to `cycles`. */
export function scoreCycles(o: {
  kind: DatasetKind;
  gold: readonly GoldEntry[];
  perCycle: ReadonlyArray<{ readonly pool: readonly string[]; readonly results: readonly RankedResult[] }>;
  cycles: number;
}): CycleScore[] {
  return Array.from({ length: o.cycles }, (_, i) => {
    const at = o.perCycle[Math.min(i, o.perCycle.length - 1)];
    if (!at) return { cycle: i + 1, poolRecall: 0, recall10: 0, mrr10: 0 };
    const files = distinctPaths(at.results);
    return {
      cycle: i + 1,
      poolRecall: recallAtK({ kind: o.kind, files: at.pool, gold: o.gold, k: Number.MAX_SAFE_INTEGER }),
      recall10: recallAtK({ kind: o.kind, files, gold: o.gold, k: 10 }),
      mrr10: reciprocalRank(files, o.gold, 10),
    };
  });
}

/** Means of per-cycle scores over tasks. */
export function meanCycleScores(perTask: ReadonlyArray<readonly CycleScore[]>): CycleScore[] {
  const n = Math.max(0, ...perTask.map((t) => t.length));
  return Array.from({ length: n }, (_, i) => ({
    cycle: i + 1,
    poolRecall: mean(perTask.map((t) => t[i]?.poolRecall ?? 0)),
    recall10: mean(perTask.map((t) => t[i]?.recall10 ?? 0)),
    mrr10: mean(perTask.map((t) => t[i]?.mrr10 ?? 0)),
  }));
}

/** One task's outcome as the summary needs it. */
export interface TaskOutcome {
  readonly score: TaskScore;
  readonly cycles: number;
  readonly files: number;
  readonly latencyMs: number;
}

/** Arithmetic mean; 0 for an empty list. */
export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Nearest-rank percentile (p in 0..100); 0 for an empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

/** Averages task outcomes into a mode's row. Tasks without results count with their zero scores. */
export function summarize(outcomes: readonly TaskOutcome[]): ModeSummary {
  const scores = outcomes.map((o) => o.score);
  const symbol = scores.map((s) => s.symbolHit10).filter((v): v is number => v !== null);
  return {
    tasks: outcomes.length,
    answered: scores.filter((s) => s.answered).length,
    recall1: mean(scores.map((s) => s.recall1)),
    recall5: mean(scores.map((s) => s.recall5)),
    recall10: mean(scores.map((s) => s.recall10)),
    mrr10: mean(scores.map((s) => s.mrr10)),
    symbolHit10: symbol.length === scores.length && symbol.length > 0 ? mean(symbol) : null,
    meanCycles: mean(outcomes.map((o) => o.cycles)),
    meanFiles: mean(outcomes.map((o) => o.files)),
    meanLatencyMs: mean(outcomes.map((o) => o.latencyMs)),
    p95LatencyMs: percentile(outcomes.map((o) => o.latencyMs), 95),
  };
}
