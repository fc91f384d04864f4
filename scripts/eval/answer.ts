/**
 * The adapter between codescout and the metrics: one query in one mode -> a ranked list of results.
 * Keep every assumption about the shape of codescout's output in this file.
 */
import { startRetrieval, type CodeIndex, type ResultFile, type RetrievalResult, type SearchMode } from '../../src/index.js';
import type { EvalJudge } from './judges.js';
import type { RankedResult } from './metrics.js';

/** The modes the harness knows: the three one-shot searches, one cycle of the loop, and the full loop. */
export const EVAL_MODES = ['lexical', 'vector', 'hybrid', 'single', 'iterative'] as const;
export type EvalMode = (typeof EVAL_MODES)[number];

/**
 * How the loop's answer (files, each with its chunks best first) becomes one ranked list of chunks.
 * `relevance`: by the chunks' relevance, where a file's best chunk never comes before an earlier file's best, so the
 * file order is the answer's; a strong file's second chunk comes before a weak file's best, as a reader of the
 * answer meets them. `round-robin`: every file's best chunk in file order, then every file's second, and so on.
 */
export const CHUNK_ORDERS = ['relevance', 'round-robin'] as const;
export type ChunkOrder = (typeof CHUNK_ORDERS)[number];

/** One answer: ranked chunk-level results (file level = their distinct paths), and the loop's trace. */
export interface Answer {
  readonly results: RankedResult[];
  /** Chunk-level results as short labels, for the JSON report. */
  readonly labels: string[];
  readonly cycles: number;
  readonly stoppedBecause?: string;
  /** Loop modes: after each cycle, the files evaluated so far (the pool) and the ranked answer at that point. */
  readonly perCycle?: ReadonlyArray<{ readonly pool: readonly string[]; readonly results: readonly RankedResult[] }>;
}

/** Runs one query (only its text) in one mode; the loop modes run a stepwise session judged by `judge`. */
export async function answer(
  index: CodeIndex,
  o: { mode: EvalMode; query: string; k: number | null; files?: number; maxCycles: number; judge?: EvalJudge; builtinJudge?: 'learned' | 'heuristic'; chunkOrder?: ChunkOrder },
): Promise<Answer> {
  if (o.mode === 'iterative' || o.mode === 'single') {
    // relatedThreshold 0: the whole ranked list of files the loop evaluated, not only the medium band.
    const session = await startRetrieval(index, { text: o.query, maxCycles: o.mode === 'single' ? 1 : o.maxCycles }, { relatedThreshold: 0, builtinJudge: o.builtinJudge });
    const pool = new Set<string>();
    const perCycle: Array<{ pool: string[]; results: RankedResult[] }> = [];
    while (!session.isDone) {
      const candidates = session.candidates();
      for (const c of candidates) pool.add(c.path);
      await session.judge(o.judge ? o.judge(candidates) : []);
      perCycle.push({ pool: [...pool], results: rankedResults(await session.result(), o.chunkOrder).results });
    }
    const r = await session.result();
    const { results, labels } = rankedResults(r, o.chunkOrder);
    return { results, labels, cycles: r.cycles.length, stoppedBecause: r.stoppedBecause, perCycle };
  }
  const files = o.files ?? 10;
  const found = await index.search(o.query, { k: o.k ?? Math.min(1000, files * ONE_SHOT_CHUNKS_PER_FILE), mode: o.mode satisfies SearchMode });
  const hits = o.k === null ? upToFiles(found, files) : found;
  return { results: hits.map((h) => ({ path: h.path, startLine: h.startLine, endLine: h.endLine })), labels: hits.map(label), cycles: 1 };
}

/** How deep a one-shot search goes to fill `--files` distinct files: ten chunks per file. */
const ONE_SHOT_CHUNKS_PER_FILE = 10;

/** The ranked chunks up to (not including) the first chunk of the (n+1)-th distinct file. */
export function upToFiles<T extends { readonly path: string }>(chunks: readonly T[], n: number): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const c of chunks) {
    if (!seen.has(c.path)) {
      if (seen.size === n) break;
      seen.add(c.path);
    }
    out.push(c);
  }
  return out;
}

/** The loop's answer as a ranked list: confident results, then the rest by relevance, chunks in `order`. */
function rankedResults(r: RetrievalResult, order: ChunkOrder = 'relevance'): { results: RankedResult[]; labels: string[] } {
  return chunkList([...r.results, ...r.related], order);
}

/** Files of an answer (in answer order, each with its chunks best first) as one ranked list of chunks. */
export function chunkList(files: readonly ResultFile[], order: ChunkOrder): { results: RankedResult[]; labels: string[] } {
  if (order === 'relevance') return byRelevance(files);
  // Round robin: every file's best chunk in file order, then every file's second best, and so on.
  const depth = Math.max(0, ...files.map((f) => f.chunks.length));
  const chunks = Array.from({ length: depth }, (_, i) =>
    files.flatMap((f) => (f.chunks[i] ? [{ path: f.path, startLine: f.chunks[i]!.startLine, endLine: f.chunks[i]!.endLine, symbol: f.chunks[i]!.symbol }] : [])),
  ).flat();
  // A file returned without chunks still counts at file level (it never hits at symbol level).
  const results: RankedResult[] = [
    ...chunks.map((c) => ({ path: c.path, startLine: c.startLine, endLine: c.endLine })),
    ...files.filter((f) => f.chunks.length === 0).map((f) => ({ path: f.path })),
  ];
  return { results, labels: chunks.map(label) };
}

function label(c: { path: string; startLine: number; endLine: number; symbol: string }): string {
  return `${c.path}:${c.startLine}-${c.endLine} ${c.symbol}`;
}

/** Chunks by relevance, each file's best in file order (see {@link CHUNK_ORDERS}). */
function byRelevance(files: readonly ResultFile[]): { results: RankedResult[]; labels: string[] } {
  const out: Array<{ path: string; startLine: number; endLine: number; symbol: string }> = [];
  const pending: Array<{ path: string; startLine: number; endLine: number; symbol: string; relevance: number; order: number }> = [];
  const take = (c: (typeof pending)[number]) => out.push({ path: c.path, startLine: c.startLine, endLine: c.endLine, symbol: c.symbol });
  files.forEach((f, i) => {
    const [first, ...rest] = f.chunks;
    if (!first) return;
    // Chunks of earlier files at least as relevant as this file's best come first; file order is kept.
    pending.sort((a, b) => b.relevance - a.relevance || a.order - b.order);
    while (pending.length > 0 && pending[0]!.relevance >= first.relevance) take(pending.shift()!);
    take({ ...first, path: f.path, relevance: first.relevance, order: i });
    for (const c of rest) pending.push({ ...c, path: f.path, order: i });
  });
  pending.sort((a, b) => b.relevance - a.relevance || a.order - b.order);
  for (const c of pending) take(c);
  const results: RankedResult[] = [
    ...out.map((c) => ({ path: c.path, startLine: c.startLine, endLine: c.endLine })),
    ...files.filter((f) => f.chunks.length === 0).map((f) => ({ path: f.path })),
  ];
  return { results, labels: out.map(label) };
}
