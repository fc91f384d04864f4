import type { ResultChunk, ResultFile } from '../retrieve/retrieval-result.js';

/** Characters per approximate token: a rough, model-independent rule for English and code. */
export const CHARS_PER_TOKEN = 4;

/** A chunk bigger than what is left is cut to its first lines only if at least this many tokens are left. */
export const MIN_PARTIAL_TOKENS = 64;

/** Approximate tokens of a text: characters / 4, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** A chunk with its code attached (or not, when the budget ran out). */
export interface BudgetedChunk extends ResultChunk {
  /** Set when `text` holds only the first lines of the chunk. */
  readonly textTruncated?: true;
}

/** A result file whose chunks may carry code. */
export interface BudgetedFile extends Omit<ResultFile, 'chunks'> {
  readonly chunks: BudgetedChunk[];
}

/** What {@link fitCodeToBudget} returns. */
export interface BudgetedCode {
  readonly results: BudgetedFile[];
  readonly related: BudgetedFile[];
  /** Approximate tokens of the code attached. */
  readonly tokensUsed: number;
  /** True when some chunk's code was left out or cut. */
  readonly truncated: boolean;
}

interface Slot {
  readonly group: 0 | 1;
  readonly file: number;
  readonly chunk: number;
  readonly relevance: number;
}

/**
 * Pure: attaches code to result chunks within a budget of approximate tokens. Every `results` chunk comes before
 * any `related` one; within a group, chunks go by relevance (then file rank, then chunk order), so the budget buys
 * the best files whole before it buys weaker ones. A chunk that does not fit is cut at a line boundary when at
 * least {@link MIN_PARTIAL_TOKENS} remain, else left without code; a chunk inside a range already attached for
 * the same file gets no code (its lines are there). `textOf` returns undefined when a chunk's code is unavailable.
 */
export function fitCodeToBudget(o: {
  results: readonly ResultFile[];
  related: readonly ResultFile[];
  budgetTokens: number;
  textOf: (path: string, chunk: ResultChunk) => string | undefined;
}): BudgetedCode {
  const groups = [o.results, o.related] as const;
  const slots: Slot[] = [];
  groups.forEach((files, group) =>
    files.forEach((f, file) => f.chunks.forEach((c, chunk) => slots.push({ group: group as 0 | 1, file, chunk, relevance: c.relevance }))),
  );
  slots.sort((a, b) => a.group - b.group || b.relevance - a.relevance || a.file - b.file || a.chunk - b.chunk);

  const out = groups.map((files) => files.map((f) => ({ ...f, chunks: f.chunks.map((c): BudgetedChunk => withoutText(c)) })));
  const covered = new Map<string, Array<[number, number]>>();
  const budget = Math.max(0, Math.floor(o.budgetTokens));
  let left = budget;
  let truncated = false;
  for (const s of slots) {
    const file = out[s.group]![s.file]!;
    const chunk = file.chunks[s.chunk]!;
    const ranges = covered.get(file.path) ?? [];
    if (ranges.some(([a, b]) => a <= chunk.startLine && chunk.endLine <= b)) continue;
    const text = o.textOf(file.path, chunk);
    if (text === undefined) continue;
    const fit = fitText(text, left);
    left -= fit.cost;
    truncated ||= fit.cut;
    const attached: BudgetedChunk | undefined = fit.text === undefined ? undefined : { ...chunk, text: fit.text, ...(fit.cut ? { textTruncated: true } : {}) };
    if (attached) {
      file.chunks[s.chunk] = attached;
      const lines = attached.textTruncated ? attached.text!.split('\n').length : chunk.endLine - chunk.startLine + 1;
      ranges.push([chunk.startLine, chunk.startLine + lines - 1]);
      covered.set(file.path, ranges);
    }
  }
  return { results: out[0]!, related: out[1]!, tokensUsed: budget - left, truncated };
}

/** A search hit whose code may be attached. */
export interface BudgetedHit<H> {
  readonly hit: H;
  /** The code, whole or its first lines; absent when the budget ran out or another hit shows these lines. */
  readonly text?: string;
  readonly textTruncated?: true;
}

/**
 * Pure: attaches the code of search hits within a budget of approximate tokens, best hit (first) first. As in
 * {@link fitCodeToBudget}, a hit that does not fit is cut at a line boundary when at least
 * {@link MIN_PARTIAL_TOKENS} remain, else left without code (a later, smaller hit may still fit), and a hit whose
 * lines an earlier hit of the same file already shows gets none.
 */
export function fitHitsToBudget<H extends { readonly path: string; readonly startLine: number; readonly endLine: number; readonly text: string }>(
  hits: readonly H[],
  budgetTokens: number,
): { hits: BudgetedHit<H>[]; tokensUsed: number; truncated: boolean } {
  const budget = Math.max(0, Math.floor(budgetTokens));
  const covered = new Map<string, Array<[number, number]>>();
  let left = budget;
  let truncated = false;
  const out = hits.map((hit): BudgetedHit<H> => {
    const ranges = covered.get(hit.path) ?? [];
    if (ranges.some(([a, b]) => a <= hit.startLine && hit.endLine <= b)) return { hit };
    const fit = fitText(hit.text, left);
    left -= fit.cost;
    truncated ||= fit.cut;
    if (fit.text === undefined) return { hit };
    ranges.push([hit.startLine, fit.cut ? hit.startLine + fit.text.split('\n').length - 1 : hit.endLine]);
    covered.set(hit.path, ranges);
    return fit.cut ? { hit, text: fit.text, textTruncated: true } : { hit, text: fit.text };
  });
  return { hits: out, tokensUsed: budget - left, truncated };
}

/** What of `text` fits in `left` tokens: all of it, its first lines (`cut`), or nothing (`cut`, no text). */
export function fitText(text: string, left: number): { text?: string; cut: boolean; cost: number } {
  const cost = estimateTokens(text);
  if (cost <= left) return { text, cut: false, cost };
  const head = left >= MIN_PARTIAL_TOKENS ? headWithin(text, left * CHARS_PER_TOKEN) : '';
  return head === '' ? { cut: true, cost: 0 } : { text: head, cut: true, cost: estimateTokens(head) };
}

/** The longest run of whole first lines of `text` within `maxChars` ('' when not even the first line fits). */
export function headWithin(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.lastIndexOf('\n', maxChars);
  return cut <= 0 ? '' : text.slice(0, cut);
}

function withoutText(c: ResultChunk): BudgetedChunk {
  const { text, ...rest } = c;
  void text; // the caller's text, if any, is replaced by what the budget allows
  return rest;
}
