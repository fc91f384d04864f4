/** Latency of the iterative retrieval loop. */
import { retrieve, type CodeIndex, type RetrieveOptions, type StopReason } from '../../src/index.js';
import { summarize, timed, type Latency } from './measure.js';

/** Latency of retrieve() (all cycles), the mean number of cycles, and why the loops stopped. */
export interface IterativeResult {
  readonly latency: Latency;
  readonly meanCycles: number;
  readonly stoppedBecause: ReadonlyMap<StopReason, number>;
}

/** Runs retrieve() once per query with the default evaluator (or the built-in judge named), after a short warm-up. */
export async function iterativeLatency(index: CodeIndex, queries: readonly string[], options: RetrieveOptions = {}): Promise<IterativeResult> {
  for (const q of queries.slice(0, 2)) await retrieve(index, { text: q }, options);
  const ms: number[] = [];
  let cycles = 0;
  const stopped = new Map<StopReason, number>();
  for (const q of queries) {
    const { value, ms: took } = await timed(() => retrieve(index, { text: q }, options));
    ms.push(took);
    cycles += value.cycles.length;
    stopped.set(value.stoppedBecause, (stopped.get(value.stoppedBecause) ?? 0) + 1);
  }
  return { latency: summarize(ms), meanCycles: cycles / Math.max(1, queries.length), stoppedBecause: stopped };
}

/** `converged 61, max-cycles 39` */
export function formatStops(stops: ReadonlyMap<string, number>): string {
  return [...stops].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ');
}
