/** The one table every bench script prints, with the machine's load so readers can judge the numbers. */
import os from 'node:os';

/** One row: what was measured, its value, and an optional note (sample size, method). */
export type Row = readonly [label: string, value: string, note?: string];

/** Load average and cores, e.g. `load 1.52 1.80 2.01 (1/5/15 min) on 2 cores, node v20.19.0`. */
export function machineLine(): string {
  const load = os.loadavg().map((x) => x.toFixed(2)).join(' ');
  return `load ${load} (1/5/15 min) on ${os.availableParallelism()} cores, node ${process.version}`;
}

/** Formats ms with a precision that suits its size. */
export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return 'n/a';
  return ms >= 100 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(1)} ms`;
}

/** Formats bytes as MB (MiB) or KB. */
export function fmtBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** Prints a title, the machine line at start and end, and aligned rows to stdout. */
export function printTable(o: { title: string; startedLoad: string; rows: readonly Row[] }): void {
  const labelWidth = Math.max(...o.rows.map((r) => r[0].length));
  const valueWidth = Math.max(...o.rows.map((r) => r[1].length));
  const lines = [
    o.title,
    `before: ${o.startedLoad}`,
    `after:  ${machineLine()}`,
    '-'.repeat(Math.min(100, labelWidth + valueWidth + 4)),
    ...o.rows.map(([label, value, note]) => `${label.padEnd(labelWidth)}  ${value.padStart(valueWidth)}${note ? `  ${note}` : ''}`),
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

/** `p50 12.3 ms  p95 20.1 ms` */
export function fmtLatency(l: { p50: number; p95: number }): string {
  return `p50 ${fmtMs(l.p50)}  p95 ${fmtMs(l.p95)}`;
}

/** A share as a percentage with one decimal. */
export function fmtPct(x: number): string {
  return `${(x * 100).toFixed(1)} %`;
}
