/**
 * The adapter between codescout and the metrics: one query in one mode -> a ranked list of results.
 * Keep every assumption about the shape of codescout's output in this file.
 */
import { retrieve, type CodeIndex, type SearchMode } from '../../src/index.js';
import type { RankedResult } from './metrics.js';

/** The modes the harness knows: the three one-shot searches and the retrieval loop. */
export const EVAL_MODES = ['lexical', 'vector', 'hybrid', 'iterative'] as const;
export type EvalMode = (typeof EVAL_MODES)[number];

/** One answer: ranked chunk-level results (file level = their distinct paths), and the loop's trace. */
export interface Answer {
  readonly results: RankedResult[];
  /** Chunk-level results as short labels, for the JSON report. */
  readonly labels: string[];
  readonly cycles: number;
  readonly stoppedBecause?: string;
}

/** Runs one query (only its text) in one mode. */
export async function answer(index: CodeIndex, o: { mode: EvalMode; query: string; k: number; maxCycles: number }): Promise<Answer> {
  if (o.mode === 'iterative') {
    const r = await retrieve(index, { text: o.query, maxCycles: o.maxCycles });
    // Ranked list = confident results, then the related band; each file contributes its chunks in the given order.
    const files = [...r.results, ...r.related];
    const chunks = files.flatMap((f) => f.chunks.map((c) => ({ path: f.path, startLine: c.startLine, endLine: c.endLine, symbol: c.symbol })));
    // A file returned without chunks still counts at file level (it never hits at symbol level).
    const results: RankedResult[] = files.flatMap((f) =>
      f.chunks.length > 0 ? f.chunks.map((c) => ({ path: f.path, startLine: c.startLine, endLine: c.endLine })) : [{ path: f.path }],
    );
    return { results, labels: chunks.map(label), cycles: r.cycles.length, stoppedBecause: r.stoppedBecause };
  }
  const hits = await index.search(o.query, { k: o.k, mode: o.mode satisfies SearchMode });
  return { results: hits.map((h) => ({ path: h.path, startLine: h.startLine, endLine: h.endLine })), labels: hits.map(label), cycles: 1 };
}

function label(c: { path: string; startLine: number; endLine: number; symbol: string }): string {
  return `${c.path}:${c.startLine}-${c.endLine} ${c.symbol}`;
}
