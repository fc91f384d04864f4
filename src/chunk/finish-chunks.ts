import { createHash } from 'node:crypto';
import type { Chunk } from '../types.js';
import { buildChunk, type ChunkDraft, type FileFacts } from './chunk-record.js';
import { codeBudget, fileBaseName, splitSpanByLines } from './line-window-chunker.js';
import type { CountTokens } from './token-estimate.js';

/** Options of `finishChunks`. */
export interface FinishOptions {
  readonly maxTokens: number;
  readonly count: CountTokens;
}

/** Lines (1-based) of `source` that are non-blank, not inside a dropped import and in no chunk. */
function uncoveredLines(file: FileFacts, chunks: readonly Chunk[], importLines: ReadonlyArray<[number, number]>): boolean[] {
  const { source } = file;
  const covered = new Uint8Array(source.lineCount + 2);
  for (const chunk of chunks) covered.fill(1, chunk.startLine, chunk.endLine + 1);
  for (const [from, to] of importLines) covered.fill(1, from, to + 1);
  const missing: boolean[] = [];
  for (let line = 1; line <= source.lineCount; line += 1) {
    missing[line] = covered[line] === 0 && !source.isBlank(source.lineStart(line), source.lineEnd(line));
  }
  return missing;
}

/**
 * Completes a file's chunks: lines no chunk covers (outside dropped imports) become 'module' chunks,
 * chunks are sorted by position, and a rare id collision (same symbol twice on one line) gets a suffix.
 */
export function finishChunks(
  file: FileFacts,
  chunks: Chunk[],
  importLines: ReadonlyArray<[number, number]>,
  options: FinishOptions,
): Chunk[] {
  const missing = uncoveredLines(file, chunks, importLines);
  const draft: ChunkDraft = { kind: 'module', symbol: fileBaseName(file.path), parent: null, signature: '', doc: '' };
  const budget = codeBudget(file, draft, options.maxTokens, options.count);
  const all = [...chunks];
  for (let line = 1; line < missing.length; line += 1) {
    if (missing[line] !== true) continue;
    let last = line;
    while (missing[last + 1] === true) last += 1;
    const span = { start: file.source.lineStart(line), end: file.source.lineEnd(last) };
    for (const part of splitSpanByLines(file.source, span, budget, options.count)) {
      const tidy = file.source.tidy(part);
      if (tidy.end > tidy.start) all.push(buildChunk(file, draft, tidy, { withContext: false }));
    }
    line = last;
  }
  all.sort((a, b) => a.startLine - b.startLine || a.endLine - b.endLine);
  const seen = new Set<string>();
  return all.map((chunk) => {
    let id = chunk.id;
    for (let n = 1; seen.has(id); n += 1) id = createHash('sha256').update(`${chunk.id}#${n}`).digest('hex').slice(0, 16);
    seen.add(id);
    return id === chunk.id ? chunk : { ...chunk, id };
  });
}
