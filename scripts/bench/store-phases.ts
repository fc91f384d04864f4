/** Phases of the store bench: the same eval tasks against two indexes, interleaved; and many concurrent readers. */
import type { CodeIndex } from '../../src/index.js';
import { answer, type EvalMode } from '../eval/answer.js';
import type { DatasetKind, EvalTask } from '../eval/dataset.js';
import { distinctPaths, scoreTask } from '../eval/metrics.js';
import { summarize, type Latency } from './measure.js';

/** One store's outcome of one mode over the tasks that both stores answered, in task order. */
export interface StoreRun {
  readonly latency: Latency;
  readonly recall10: readonly number[];
  /** Each task's first ten distinct files. */
  readonly top10: ReadonlyArray<readonly string[]>;
}

/** A task one store failed: left out of both stores' figures, and reported. */
export interface TaskFailure {
  readonly taskId: string;
  readonly store: number;
  readonly message: string;
}

/**
 * Runs every task in `mode` against both indexes, interleaved task by task with the order alternating (A B, B A, ...)
 * so that load drift and warm caches fall on both alike; the loop modes use the built-in judge, as the eval does.
 * One untimed warm-up query per index first. A task that fails on either store is left out of both (paired
 * figures) and returned in `failures`: a store bug must show in the table, not stop the other measurements.
 */
export async function runInterleaved(o: {
  indexes: readonly [CodeIndex, CodeIndex]; tasks: readonly EvalTask[]; kind: DatasetKind; mode: EvalMode; k: number; maxCycles: number;
}): Promise<{ runs: [StoreRun, StoreRun]; failures: TaskFailure[] }> {
  const ask = (index: CodeIndex, query: string) => answer(index, { mode: o.mode, query, k: o.k, maxCycles: o.maxCycles });
  for (const index of o.indexes) await ask(index, 'warm up the model and the store before timing');
  const runs = o.indexes.map(() => ({ ms: [] as number[], recall10: [] as number[], top10: [] as string[][] }));
  const failures: TaskFailure[] = [];
  for (const [t, task] of o.tasks.entries()) {
    const order = o.indexes.map((_, i) => i);
    if (t % 2 === 1) order.reverse();
    const outcome: Array<{ ms: number; recall10: number; top10: string[] } | undefined> = [];
    for (const i of order) {
      const t0 = performance.now();
      try {
        const a = await ask(o.indexes[i]!, task.query);
        outcome[i] = { ms: performance.now() - t0, recall10: scoreTask({ kind: o.kind, results: a.results, gold: task.gold }).recall10, top10: distinctPaths(a.results).slice(0, 10) };
      } catch (error) {
        failures.push({ taskId: task.id, store: i, message: error instanceof Error ? error.message : String(error) });
      }
    }
    if (outcome.some((x) => x === undefined) || outcome.length < o.indexes.length) continue;
    outcome.forEach((x, i) => {
      runs[i]!.ms.push(x!.ms);
      runs[i]!.recall10.push(x!.recall10);
      runs[i]!.top10.push(x!.top10);
    });
  }
  const [a, b] = runs.map((r) => ({ latency: summarize(r.ms), recall10: r.recall10, top10: r.top10 }));
  return { runs: [a!, b!], failures };
}

/** Mean R@10 and the 95 % interval of the paired difference b - a (normal approximation). */
export function pairedRecall(a: readonly number[], b: readonly number[]): { meanA: number; meanB: number; diff: number; halfWidth: number } {
  const n = Math.min(a.length, b.length);
  const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  const d = Array.from({ length: n }, (_, i) => b[i]! - a[i]!);
  const diff = mean(d);
  const sd = Math.sqrt(d.reduce((s, x) => s + (x - diff) ** 2, 0) / Math.max(1, n - 1));
  return { meanA: mean(a), meanB: mean(b), diff, halfWidth: (1.96 * sd) / Math.sqrt(Math.max(1, n)) };
}

/** Mean share of A's top-10 files that B's top 10 also holds, and the tasks whose two sets are identical. */
export function top10Overlap(a: ReadonlyArray<readonly string[]>, b: ReadonlyArray<readonly string[]>): { meanShare: number; identical: number } {
  let share = 0;
  let identical = 0;
  for (const [i, files] of a.entries()) {
    const other = new Set(b[i] ?? []);
    const common = files.filter((f) => other.has(f)).length;
    share += files.length === 0 ? 1 : common / files.length;
    if (common === files.length && other.size === files.length) identical++;
  }
  return { meanShare: share / Math.max(1, a.length), identical };
}

/** Throughput and latency of concurrent readers. */
export interface ConcurrentResult {
  readonly readers: number;
  readonly queries: number;
  readonly seconds: number;
  readonly perSecond: number;
  readonly latency: Latency;
}

/**
 * `indexes.length` readers, each its own opened index, run at once in this process: reader r asks `perReader`
 * hybrid searches (k 10), one after another, starting at query r * 7 of the list so that they do not march in step.
 */
export async function concurrentReaders(o: { indexes: readonly CodeIndex[]; queries: readonly string[]; perReader: number }): Promise<ConcurrentResult> {
  const ms: number[] = [];
  const t0 = performance.now();
  await Promise.all(o.indexes.map(async (index, r) => {
    for (let q = 0; q < o.perReader; q++) {
      const text = o.queries[(r * 7 + q) % o.queries.length]!;
      const s = performance.now();
      await index.search(text, { k: 10 });
      ms.push(performance.now() - s);
    }
  }));
  const seconds = (performance.now() - t0) / 1000;
  return { readers: o.indexes.length, queries: ms.length, seconds, perSecond: ms.length / seconds, latency: summarize(ms) };
}
