/** The printed table and the JSON report of an eval run. */
import type { DatasetKind, GoldEntry } from './dataset.js';
import type { ModeSummary, TaskScore } from './metrics.js';

/** Facts about the run shown above the table. */
export interface RunInfo {
  readonly dataset: string;
  readonly kind: DatasetKind;
  readonly tasks: number;
  readonly repo: string;
  readonly commit: string;
  readonly corpus: string;
  readonly corpusFiles: number;
  readonly model: string;
  readonly indexedFiles: number;
  readonly indexedChunks: number;
  /** Seconds `update()` took in this run (small when the cached index was current). */
  readonly buildSeconds: number;
  readonly embedded: number;
  /** Chunks per one-shot search, or null when one-shot modes search until `files` distinct files. */
  readonly k: number | null;
  readonly files: number;
}

/** One task's outcome in one mode, for failure analysis. */
export interface TaskRecord {
  readonly files: readonly string[];
  /** First 10 chunk-level results as `path:start-end symbol` (doc2code). */
  readonly chunks: readonly string[];
  readonly score: TaskScore;
  readonly cycles: number;
  readonly latencyMs: number;
  readonly stoppedBecause?: string;
}

/** The JSON report: run info, one summary per mode, and every task's outcome per mode. */
export interface JsonReport {
  readonly info: RunInfo;
  readonly modes: Record<string, ModeSummary>;
  readonly notIndexed: readonly string[];
  readonly tasks: ReadonlyArray<{ id: string; query: string; gold: readonly GoldEntry[]; modes: Record<string, TaskRecord> }>;
}

/** The line above the table. */
export function formatHeaderLine(i: RunInfo): string {
  return (
    `dataset ${i.dataset} (${i.kind}, ${i.tasks} tasks) | corpus ${i.repo}@${i.commit.slice(0, 12)} from ${i.corpus} (${i.corpusFiles} files) | ` +
    `model ${i.model} | indexed ${i.indexedFiles} files / ${i.indexedChunks} chunks | index build ${i.buildSeconds.toFixed(1)} s (${i.embedded} embedded) | one-shot ${i.k === null ? `until ${i.files} files` : `k ${i.k} chunks`}`
  );
}

/** Mode rows by metric columns, fixed-width. */
export function formatTable(kind: DatasetKind, rows: ReadonlyArray<{ mode: string; summary: ModeSummary }>): string {
  const columns: Array<{ title: string; cell: (s: ModeSummary) => string }> = [
    { title: 'answered', cell: (s) => `${s.answered}/${s.tasks}` },
    { title: 'R@1', cell: (s) => s.recall1.toFixed(3) },
    { title: 'R@5', cell: (s) => s.recall5.toFixed(3) },
    { title: 'R@10', cell: (s) => s.recall10.toFixed(3) },
    { title: 'MRR@10', cell: (s) => s.mrr10.toFixed(3) },
    ...(kind === 'doc2code' ? [{ title: 'SymHit@10', cell: (s: ModeSummary) => (s.symbolHit10 ?? 0).toFixed(3) }] : []),
    { title: 'cycles', cell: (s) => s.meanCycles.toFixed(2) },
    { title: 'files/q', cell: (s) => s.meanFiles.toFixed(1) },
    { title: 'ms mean', cell: (s) => s.meanLatencyMs.toFixed(0) },
    { title: 'ms p95', cell: (s) => s.p95LatencyMs.toFixed(0) },
  ];
  const table = [['mode', ...columns.map((c) => c.title)], ...rows.map((r) => [r.mode, ...columns.map((c) => c.cell(r.summary))])];
  const widths = table[0]!.map((_, col) => Math.max(...table.map((row) => row[col]!.length)));
  return table.map((row) => row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!))).join('  ')).join('\n');
}

/** The loop modes' state after each cycle: pool recall (gold among the files evaluated so far), R@10, MRR@10. */
export function formatCycleTable(rows: ReadonlyArray<{ mode: string; summary: ModeSummary }>, judge: string): string {
  const lines = [`per cycle (judge: ${judge})`, 'mode        cycle  pool recall   R@10  MRR@10'];
  for (const r of rows) {
    for (const c of r.summary.perCycle ?? []) {
      lines.push(`${r.mode.padEnd(10)}  ${String(c.cycle).padStart(5)}  ${c.poolRecall.toFixed(3).padStart(11)}  ${c.recall10.toFixed(3).padStart(5)}  ${c.mrr10.toFixed(3).padStart(6)}`);
    }
  }
  return lines.join('\n');
}
