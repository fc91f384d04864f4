import type { AsyncCatalog } from '../store/catalog-port.js';
import type { ChunkRow } from '../store/catalog-types.js';
import type { DispatchedChunk } from './dispatch.js';
import type { ChunkOrigin, Evaluation } from './evaluator.js';
import type { GapFile } from './gaps.js';
import { LOW_RELEVANCE } from './refine.js';
import type { ResultFile } from './retrieval-result.js';

/** Best evidence so far for one file. */
export interface FileState {
  /** Mutable copy of the best evaluation: gap resolution may raise it and trim its missing context. */
  evaluation: GapFile & { chunkRelevance?: Evaluation['chunkRelevance'] };
  cycle: number;
  /** The cycle that first found the file: 1 means the task's own query found it. */
  firstSeen: number;
  /** True when the judge (not only the hint) has spoken about the file: a hint never overrides the judge. */
  judged: boolean;
  /** The built-in judge's best relevance for the file: orders files the judge scored alike. */
  hint: number;
  /** `hint`: the built-in judge's relevance of the chunk, which orders chunks a judge scored alike. */
  chunks: Map<string, { row: ChunkRow; relevance: number; hint: number; origin: ChunkOrigin }>;
}

/**
 * Keeps the best evaluation per file and the best relevance per chunk (the judge's word replaces a hint, a hint
 * never overrides the judge); returns how many files are new with relevance >= 0.2. Mutates `files`.
 */
export function mergeEvaluations(o: {
  files: Map<string, FileState>;
  evaluations: readonly Evaluation[];
  byJudge: boolean;
  /** The cycle's chunks, with the search that found each. */
  scored: readonly DispatchedChunk[];
  /** The built-in judge's relevance per chunk id in this cycle. */
  chunkHints: ReadonlyMap<string, number>;
  cycle: number;
}): number {
const { files, byJudge, cycle } = o;
  const rowsByFile = new Map<string, ChunkRow[]>();
  const origins = new Map(o.scored.map((c) => [c.row.rowId, c.origin]));
  for (const c of o.scored) rowsByFile.set(c.row.path, [...(rowsByFile.get(c.row.path) ?? []), c.row]);
  let fresh = 0;
  for (const e of o.evaluations) {
    const relevance = Math.max(0, Math.min(1, Number.isFinite(e.relevance) ? e.relevance : 0));
    const evaluation = { ...e, relevance, missingContext: [...e.missingContext] };
    const state = files.get(e.path);
    if (!state) {
      if (relevance >= LOW_RELEVANCE) fresh++;
      files.set(e.path, { evaluation, cycle: cycle, firstSeen: cycle, judged: byJudge, hint: 0, chunks: new Map() });
    } else if ((byJudge && !state.judged) || (byJudge === state.judged && relevance > state.evaluation.relevance)) {
      // The judge's word replaces a hint; otherwise the best evidence across cycles wins.
      state.evaluation = evaluation;
      state.cycle = cycle;
      state.judged ||= byJudge;
    }
    const target = files.get(e.path)!;
    for (const row of rowsByFile.get(e.path) ?? []) {
      const r = target.judged && !byJudge ? target.evaluation.relevance : (e.chunkRelevance?.[row.chunkId] ?? relevance);
      const prev = target.chunks.get(row.chunkId);
      const hint = Math.max(prev?.hint ?? 0, o.chunkHints.get(row.chunkId) ?? 0);
      const origin = prev && prev.origin !== 'definition' && prev.origin !== 'usage' ? prev.origin : (origins.get(row.rowId) ?? 'search');
      if (!prev || r > prev.relevance) target.chunks.set(row.chunkId, { row, relevance: r, hint, origin });
      else Object.assign(prev, { hint, origin });
    }
  }
  return fresh;
}

/** The file's n best chunks. */
export function topChunks(f: FileState, n: number): Array<{ row: ChunkRow; relevance: number }> {
  return [...f.chunks.values()].sort((a, b) => b.relevance - a.relevance || b.hint - a.hint).slice(0, n);
}

/** Context when gap-following raised it, or when only gap look-ups and user searches found it and nobody judged it high. */
export function roleOf(f: FileState, highThreshold: number): 'answer' | 'context' {
  if (f.evaluation.role === 'context') return 'context';
  const gapOnly = [...f.chunks.values()].every((c) => c.origin === 'definition' || c.origin === 'usage');
  return gapOnly && f.evaluation.relevance < highThreshold ? 'context' : 'answer';
}

/** A file's state as the answer shows it. */
export function toResultFile(f: FileState, highThreshold: number): ResultFile {
  const chunks = [...f.chunks.values()]
    .sort((a, b) => b.relevance - a.relevance || b.hint - a.hint || a.row.startLine - b.row.startLine)
    .map(({ row, relevance }) => ({ symbol: row.symbol, kind: row.kind, parent: row.parent, startLine: row.startLine, endLine: row.endLine, relevance }));
  const { path, relevance, reason, missingContext } = f.evaluation;
  return { path, relevance, reason, chunks, missingContext, cycle: f.cycle, role: roleOf(f, highThreshold) };
}

/**
 * Brings the files up to date with an index that changed since the session saw them: a file no longer indexed is
 * dropped; a chunk whose row is gone is replaced by the file's current chunk of the same symbol (its lines may have
 * moved), or dropped when the symbol is gone. Mutates `files`.
 */
export async function refreshFiles(files: Map<string, FileState>, catalog: AsyncCatalog): Promise<void> {
  for (const [path, f] of files) {
    if (!(await catalog.getFile(path))) {
      files.delete(path);
      continue;
    }
    const copies = [...f.chunks.entries()];
    // A row that lives on may have moved (an edit above it): take its current lines and id.
    const live = new Map((await catalog.getChunks(copies.map(([, c]) => c.row.rowId))).filter((r) => r.path === path).map((r) => [r.rowId, r]));
    f.chunks.clear();
    for (const [, c] of copies) {
      const now = live.get(c.row.rowId);
      if (now) f.chunks.set(now.chunkId, { ...c, row: now });
    }
    const stale = copies.filter(([, c]) => !live.has(c.row.rowId)).sort((a, b) => a[1].row.startLine - b[1].row.startLine);
    if (stale.length === 0) continue;
    // The parts of one symbol pair up in order: the first stale part of X takes the first current part of X.
    const keyOf = (r: ChunkRow): string => `${r.symbol}\0${r.kind}\0${r.parent ?? ''}`;
    const current = (await catalog.getChunks(await catalog.findSymbolRowIds([...new Set(stale.map(([, c]) => c.row.symbol))], 200, { includeMethods: true })))
      .filter((r) => r.path === path && !f.chunks.has(r.chunkId))
      .sort((a, b) => a.startLine - b.startLine);
    for (const [, c] of stale) {
      const i = current.findIndex((r) => keyOf(r) === keyOf(c.row));
      if (i === -1) continue;
      const [now] = current.splice(i, 1);
      f.chunks.set(now!.chunkId, { ...c, row: now! });
    }
  }
}
