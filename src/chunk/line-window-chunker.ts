import type { Chunk, ChunkKind, Language } from '../types.js';
import { buildChunk, type ChunkDraft, type FileFacts } from './chunk-record.js';
import type { ChunkInput, ChunkResult, Chunker } from './chunker.js';
import { SourceText, type Span } from './source-text.js';
import { estimateTokens, type CountTokens } from './token-estimate.js';

/** Fewest code tokens a chunk may hold, so tiny budgets still make progress. */
export const MIN_CODE_TOKENS = 8;
/** Most lines repeated between consecutive windows. */
const MAX_OVERLAP_LINES = 3;

/** Base name of a path without its last extension (`src/a.test.ts` -> `a.test`). */
export function fileBaseName(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/** Cuts one over-long line span into char slices of at most `budget` tokens each. */
function splitLongLine(source: SourceText, span: Span, budget: number, count: CountTokens): Span[] {
  const spans: Span[] = [];
  let width = Math.max(16, budget * 3);
  let start = span.start;
  while (start < span.end) {
    let end = Math.min(span.end, start + width);
    while (end - start > 1 && count(source.text.slice(start, end)) > budget) {
      width = Math.max(1, (end - start) >> 1);
      end = start + width;
    }
    spans.push({ start, end });
    start = end;
    width = Math.ceil(width * 1.25);
  }
  return spans;
}

/** Token count of each line in [first, last] (1-based); blank lines cost 0. */
function lineTokens(source: SourceText, first: number, last: number, span: Span, count: CountTokens): number[] {
  const tokens: number[] = [];
  for (let line = first; line <= last; line += 1) {
    const s = Math.max(span.start, source.lineStart(line));
    const e = Math.min(span.end, source.lineEnd(line));
    tokens.push(e > s ? count(source.text.slice(s, e)) : 0);
  }
  return tokens;
}

/**
 * Splits a span into consecutive, non-overlapping spans of whole lines of at most `budget` tokens
 * each (summing per-line counts, which over-estimates); a line above the budget is cut into char slices.
 */
export function splitSpanByLines(source: SourceText, span: Span, budget: number, count: CountTokens): Span[] {
  const first = source.lineOf(span.start);
  const last = source.lineOf(Math.max(span.start, span.end - 1));
  const tokens = lineTokens(source, first, last, span, count);
  const spans: Span[] = [];
  let windowStart = span.start;
  let used = 0;
  for (let line = first; line <= last; line += 1) {
    const lineTok = tokens[line - first] as number;
    const s = Math.max(span.start, source.lineStart(line));
    const e = line === last ? span.end : Math.min(span.end, source.lineStart(line + 1));
    if (lineTok > budget) {
      if (s > windowStart) spans.push({ start: windowStart, end: s });
      spans.push(...splitLongLine(source, { start: s, end: e }, budget, count));
      windowStart = e;
      used = 0;
    } else if (used + lineTok > budget) {
      spans.push({ start: windowStart, end: s });
      windowStart = s;
      used = lineTok;
    } else {
      used += lineTok;
    }
  }
  if (span.end > windowStart) spans.push({ start: windowStart, end: span.end });
  return spans;
}

/** Options of line-window chunking. */
export interface LineWindowOptions {
  readonly maxTokens: number;
  readonly countTokens?: CountTokens;
  /** Kind of the chunks; default 'text'. */
  readonly kind?: ChunkKind;
}

/**
 * Cuts a whole file into windows of lines (kind 'text', symbol = file base name) of at most the code
 * budget, consecutive windows sharing up to 3 lines. Never throws; blank windows are dropped.
 */
export function chunkByLineWindows(input: ChunkInput, options: LineWindowOptions): Chunk[] {
  const count = options.countTokens ?? estimateTokens;
  const source = new SourceText(input.content);
  const file: FileFacts = { path: input.path, language: input.language, source };
  const draft: ChunkDraft = { kind: options.kind ?? 'text', symbol: fileBaseName(input.path), parent: null, signature: '', doc: '' };
  const budget = codeBudget(file, draft, options.maxTokens, count);
  // Windows are packed to 85% of the budget so the overlap lines fit in the rest.
  const packBudget = Math.max(MIN_CODE_TOKENS, Math.floor(budget * 0.85));
  const spans = splitSpanByLines(source, { start: 0, end: source.text.length }, packBudget, count);
  const chunks: Chunk[] = [];
  for (let i = 0; i < spans.length; i += 1) {
    const span = withOverlap(source, spans, i, budget, count);
    const tidy = source.tidy(span);
    if (tidy.end > tidy.start) chunks.push(buildChunk(file, draft, tidy, { withContext: false }));
  }
  return chunks;
}

/** Extends window `i` backwards by up to 3 whole lines of the previous window, within the budget. */
function withOverlap(source: SourceText, spans: Span[], i: number, budget: number, count: CountTokens): Span {
  const span = spans[i] as Span;
  const previous = spans[i - 1];
  if (previous === undefined || source.lineStart(source.lineOf(span.start)) !== span.start) return span;
  let used = count(source.text.slice(span.start, span.end));
  let start = span.start;
  for (let k = 0; k < MAX_OVERLAP_LINES; k += 1) {
    const line = source.lineOf(start) - 1;
    const lineStart = source.lineStart(line);
    if (line < 1 || lineStart < previous.start) break;
    const extra = count(source.text.slice(lineStart, start));
    if (used + extra > budget) break;
    used += extra;
    start = lineStart;
  }
  return { start, end: span.end };
}

/** Code tokens left for a chunk of `draft` once its largest header (parts, signature, doc) is paid. */
export function codeBudget(file: FileFacts, draft: ChunkDraft, maxTokens: number, count: CountTokens): number {
  const header = `// path: ${file.path}\n// ${draft.kind} ${draft.parent ?? ''}.${draft.symbol} (part 99/99)\n// ${draft.signature}\n// ${draft.doc}\n`;
  const merged = draft.merged === undefined ? '' : ` (+ ${draft.merged.join(', ')})`;
  return Math.max(MIN_CODE_TOKENS, maxTokens - count(header + merged));
}

/** Line-window chunker for any text file (`language` 'text'); also the fallback of other chunkers. */
export class LineWindowChunker implements Chunker {
  readonly languages: readonly Language[] = ['text'];

  constructor(private readonly options: LineWindowOptions) {}

  /** Cuts the file into overlapping line windows; never throws. */
  chunk(input: ChunkInput): ChunkResult {
    return { chunks: chunkByLineWindows(input, this.options), warnings: [] };
  }
}
