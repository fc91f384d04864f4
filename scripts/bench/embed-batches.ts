/**
 * The batch-size table of bench-embed: for each onnxruntime thread setting, batch plans (fixed rows sorted by
 * length or in input order, and padded-token budgets) timed side by side with batch 1 in the same run, with
 * padding waste and how far each plan's vectors move from batch 1's; then the bare onnxruntime session over the
 * chosen plan as the ceiling.
 */
import os from 'node:os';
import * as ort from 'onnxruntime-node';
import { inputOrderBatches, lengthBatches, paddingStats, type BatchLimits } from '../../src/embed/length-batches.js';
import type { TransformersEmbedder } from '../../src/embed/transformers-embedder.js';

/** One way of grouping the inputs into forward passes. */
export interface BatchPlanSpec {
  readonly label: string;
  readonly plan: (lengths: readonly number[]) => number[][];
}

/** Fixed-size plans sorted by length and in input order, for each size. */
export function sizePlans(sizes: readonly number[]): BatchPlanSpec[] {
  const plans: BatchPlanSpec[] = [];
  for (const rows of sizes) {
    plans.push({ label: `${rows} sorted`, plan: (l) => lengthBatches(l, { maxRows: rows, maxTokens: Number.POSITIVE_INFINITY }) });
    if (rows > 1) plans.push({ label: `${rows} unsorted`, plan: (l) => inputOrderBatches(l.length, rows) });
  }
  return plans;
}

/** Plans capped by padded tokens per pass (and `maxRows` rows), sorted by length. */
export function budgetPlans(budgets: readonly number[], maxRows: number): BatchPlanSpec[] {
  return budgets.map((b) => ({ label: `≤${b} tok (≤${maxRows} rows)`, plan: (l) => lengthBatches(l, { maxRows, maxTokens: b }) }));
}

/** The plan an embedder uses by default. */
export function limitsPlan(label: string, limits: BatchLimits): BatchPlanSpec {
  return { label, plan: (l) => lengthBatches(l, limits) };
}

/** What one plan measured: best of the rounds. */
export interface PlanResult {
  readonly label: string;
  readonly ms: number;
  /** CPU time of this process (all threads) over the same passes as `ms`. */
  readonly cpuMs: number;
  readonly waste: number;
  readonly cosMin: number;
  readonly cosMean: number;
}

function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/**
 * Times every plan through `embedder.embedBatches` (infer + pool). The texts are cut into slices of `slice` (the
 * indexer too embeds a commit's texts at a time) and every plan runs on a slice before the next slice, round after
 * round, so a load spike on a shared machine hits all plans alike; a plan's time is the sum over slices of its
 * fastest round. The first plan is the reference for the vectors' cosines.
 */
export async function timePlans(o: {
  embedder: TransformersEmbedder;
  ids: readonly number[][];
  plans: readonly BatchPlanSpec[];
  rounds: number;
  slice: number;
}): Promise<PlanResult[]> {
  const { embedder, ids, plans } = o;
  const slices: number[][][] = [];
  for (let start = 0; start < ids.length; start += o.slice) slices.push(ids.slice(start, start + o.slice));
  // batches[plan][slice]
  const batches = plans.map((p) => slices.map((s) => p.plan(s.map((x) => x.length))));
  const vectors: Float32Array[][] = plans.map(() => []);
  const ms = plans.map(() => 0);
  const cpuMs = plans.map(() => 0);
  for (let s = 0; s < slices.length; s++) {
    // Warm-up (and the vectors): onnxruntime pays a one-off cost per new input shape.
    for (let p = 0; p < plans.length; p++) vectors[p]!.push(...(await embedder.embedBatches(slices[s]!, batches[p]![s]!)));
    const best = plans.map(() => Number.POSITIVE_INFINITY);
    const bestCpu = plans.map(() => Number.POSITIVE_INFINITY);
    for (let r = 0; r < o.rounds; r++) {
      for (let p = 0; p < plans.length; p++) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        await embedder.embedBatches(slices[s]!, batches[p]![s]!);
        best[p] = Math.min(best[p]!, performance.now() - t0);
        const c = process.cpuUsage(c0);
        bestCpu[p] = Math.min(bestCpu[p]!, (c.user + c.system) / 1000);
      }
    }
    best.forEach((b, p) => (ms[p]! += b));
    bestCpu.forEach((b, p) => (cpuMs[p]! += b));
  }
  const lengths = slices.map((s) => s.map((x) => x.length));
  return plans.map((p, k) => {
    const cos = vectors[k]!.map((v, i) => cosine(v, vectors[0]![i]!));
    let real = 0;
    let padded = 0;
    lengths.forEach((l, s) => {
      const stats = paddingStats(l, batches[k]![s]!);
      real += stats.real;
      padded += stats.padded;
    });
    return {
      label: p.label,
      ms: ms[k]!,
      cpuMs: cpuMs[k]!,
      waste: padded === 0 ? 0 : (padded - real) / padded,
      cosMin: Math.min(...cos),
      cosMean: cos.reduce((s, x) => s + x, 0) / cos.length,
    };
  });
}

/** A bare onnxruntime session over tensors built beforehand for `batches`: `run` times one pass over all of them. */
export async function bareSession(o: {
  onnxPath: string;
  threads: ThreadSetting;
  ids: readonly number[][];
  batches: readonly (readonly number[])[];
}): Promise<{ run: () => Promise<number>; release: () => Promise<void> }> {
  const session = await ort.InferenceSession.create(o.onnxPath, {
    intraOpNumThreads: o.threads.intra,
    interOpNumThreads: o.threads.inter,
    executionMode: o.threads.inter > 1 ? 'parallel' : 'sequential',
    graphOptimizationLevel: 'all',
    ...(o.threads.spinning ? {} : { extra: { session: { intra_op: { allow_spinning: '0' }, inter_op: { allow_spinning: '0' } } } }),
  });
  const feeds = o.batches.map((batch) => {
    const rows = batch.length;
    const seq = Math.max(...batch.map((i) => o.ids[i]!.length));
    const inputIds = new BigInt64Array(rows * seq);
    const mask = new BigInt64Array(rows * seq);
    batch.forEach((i, r) => {
      o.ids[i]!.forEach((t, k) => {
        inputIds[r * seq + k] = BigInt(t);
        mask[r * seq + k] = 1n;
      });
    });
    return {
      input_ids: new ort.Tensor('int64', inputIds, [rows, seq]),
      attention_mask: new ort.Tensor('int64', mask, [rows, seq]),
      token_type_ids: new ort.Tensor('int64', new BigInt64Array(rows * seq), [rows, seq]),
    };
  });
  for (const f of feeds) await session.run(f);
  return {
    run: async () => {
      const t0 = performance.now();
      for (const f of feeds) await session.run(f);
      return performance.now() - t0;
    },
    release: () => session.release(),
  };
}

/** Formats the rows of one thread setting, each against the first (batch 1). */
export function formatPlanRows(o: { threads: string; results: readonly PlanResult[]; texts: number; tokens: number }): string[] {
  const base = o.results[0]!.ms;
  return o.results.map((r) => {
    const cells = [
      o.threads.padEnd(11),
      r.label.padEnd(22),
      ((o.texts / r.ms) * 1000).toFixed(1).padStart(8),
      ((o.tokens / r.ms) * 1000).toFixed(0).padStart(8),
      `${(r.waste * 100).toFixed(1)}%`.padStart(7),
      `${(base / r.ms).toFixed(2)}x`.padStart(7),
      ((o.tokens / r.cpuMs) * 1000).toFixed(0).padStart(9),
      r.cosMin.toFixed(5).padStart(9),
      r.cosMean.toFixed(5).padStart(9),
    ];
    return cells.join('  ');
  });
}

/** Header of {@link formatPlanRows}. */
export const PLAN_HEADER = ['threads'.padEnd(11), 'batch'.padEnd(22), 'texts/s'.padStart(8), 'tokens/s'.padStart(8), 'padding'.padStart(7), 'vs b1'.padStart(7), 'tok/cpu-s'.padStart(9), 'cos min'.padStart(9), 'cos mean'.padStart(9)].join('  ');

/** A thread setting of the table. */
export interface ThreadSetting {
  readonly label: string;
  readonly intra: number;
  readonly inter: number;
  /** false: idle onnxruntime threads sleep instead of spin-waiting. */
  readonly spinning: boolean;
}

/** `intra x inter`, e.g. `2x1`, with `-nospin` for idle threads that sleep, parsed. */
export function parseThreads(spec: string): ThreadSetting {
  const m = /^(\d+)x(\d+)(-nospin)?$/.exec(spec.trim());
  if (!m) throw new Error(`thread setting "${spec}" is not intra x inter[-nospin], e.g. 2x1 or 2x1-nospin`);
  return { label: spec.trim(), intra: Number(m[1]), inter: Number(m[2]), spinning: m[3] === undefined };
}

/** One-line load, for rows measured over minutes on a shared machine. */
export function loadNow(): string {
  return `load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`;
}
