/** Timing, percentiles and memory sampling for the bench scripts. */

/** Summary of a list of durations (ms). */
export interface Latency {
  readonly n: number;
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
  readonly mean: number;
}

/** Nearest-rank percentile of already sorted values (p in 0..100); NaN for an empty list. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** p50, p95, max and mean of durations (ms). */
export function summarize(ms: readonly number[]): Latency {
  const sorted = [...ms].sort((a, b) => a - b);
  const mean = sorted.reduce((s, x) => s + x, 0) / Math.max(1, sorted.length);
  return { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? Number.NaN, mean };
}

/**
 * Runs fn and returns its result with the wall time it took and the CPU time this process spent meanwhile
 * (ms, user + system, all threads including onnxruntime's). On a shared, loaded machine CPU time says more
 * about the work done than wall time does.
 */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; cpuMs: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { value, ms, cpuMs: (c.user + c.system) / 1000 };
}

/**
 * Samples process RSS on a timer, because `resourceUsage().maxRSS` is a lifetime peak and cannot tell
 * one phase from the next. The interval is unref'd so it never keeps the process alive.
 */
export class RssSampler {
  private peakBytes = 0;
  private timer: NodeJS.Timeout | undefined;

  /** Starts (or restarts) sampling every `intervalMs`, resetting the peak to the current RSS. */
  start(intervalMs = 25): this {
    this.stop();
    this.peakBytes = process.memoryUsage.rss();
    this.timer = setInterval(() => this.sample(), intervalMs).unref();
    return this;
  }

  /** Stops sampling; returns the peak RSS seen since start (bytes). */
  stop(): number {
    if (this.timer) this.sample();
    clearInterval(this.timer);
    this.timer = undefined;
    return this.peakBytes;
  }

  private sample(): void {
    this.peakBytes = Math.max(this.peakBytes, process.memoryUsage.rss());
  }
}

/** Lifetime peak RSS of this process (bytes). */
export function processPeakRssBytes(): number {
  return process.resourceUsage().maxRSS * 1024;
}

/** Waits until `probe` returns true, polling every `intervalMs`; false after `timeoutMs`. */
export async function pollUntil(probe: () => Promise<boolean> | boolean, o: { intervalMs: number; timeoutMs: number }): Promise<boolean> {
  const deadline = performance.now() + o.timeoutMs;
  for (;;) {
    if (await probe()) return true;
    if (performance.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, o.intervalMs));
  }
}
