import type { CycleTrace, StopReason } from '../retrieve/retrieval-result.js';
import { chunkTitle, clip, fenced, languageTag, oneLine } from './markdown.js';
import type { BudgetedChunk, BudgetedFile } from './token-budget.js';

/** Longest reason (and list of missing context) shown per file, in characters: judges may write at length. */
export const MAX_REASON_CHARS = 200;

/** Chunks without code listed per file (neighbouring parts of one symbol as one); the rest are counted (the structured content lists them all). */
export const MAX_BARE_CHUNKS = 4;

/** Terms, gaps or paths listed per line of the trace. */
const MAX_TRACE_ITEMS = 8;

/** The answer of a retrieval as `retrieve_context` and `judge_context` return it (status "done"). */
export interface ContextPackView {
  readonly results: readonly BudgetedFile[];
  readonly related: readonly BudgetedFile[];
  readonly cycles: readonly CycleTrace[];
  readonly stoppedBecause: StopReason;
  readonly tokenBudget: number;
  readonly tokensUsed: number;
  readonly truncated: boolean;
}

/**
 * The answer as Markdown for an agent to read: a summary line, then per file a heading (path, relevance, role,
 * reason) and its chunks (`startLine-endLine kind symbol`) with fenced code for those that carry it. Only the code
 * grows with the token budget; everything else is a bounded overhead per file. The cycle trace only with `trace`.
 */
export function renderContextPack(p: ContextPackView, o: { trace: boolean }): string {
  const parts = [summary(p)];
  if (p.results.length > 0) parts.push('# Results', ...p.results.map(renderFile));
  if (p.related.length > 0) parts.push('# Related', ...p.related.map(renderFile));
  if (o.trace) parts.push(renderTrace(p.cycles));
  return parts.join('\n\n');
}

function summary(p: ContextPackView): string {
  const found = p.results.length === 0 ? 'No file reached the high-relevance band (0.7)' : `${plural(p.results.length, 'file')} with relevance >= 0.7`;
  const stop = `stopped (${p.stoppedBecause}) after ${plural(p.cycles.length, 'cycle')}`;
  const cut = p.truncated ? '; some chunks were cut or left out to fit (a larger tokenBudget shows more)' : '';
  return `${found}, ${p.related.length} related (0.4-0.7); ${stop}. Code: ${p.tokensUsed} of ${p.tokenBudget} tokens${cut}.`;
}

function renderFile(f: BudgetedFile): string {
  const lines = [`## ${oneLine(f.path)}  (${f.relevance.toFixed(2)}, ${f.role}: ${clip(f.reason, MAX_REASON_CHARS)})`];
  if (f.missingContext.length > 0) lines.push(`missing: ${clip(f.missingContext.join('; '), MAX_REASON_CHARS)}`);
  const tag = languageTag(f.path);
  let bare = 0;
  for (const c of mergeBareParts(f.chunks)) {
    if (c.text === undefined) {
      bare += 1;
      if (bare <= MAX_BARE_CHUNKS) lines.push(`- ${chunkTitle(c)}`);
    } else {
      lines.push(`- ${chunkTitle(c)}${c.textTruncated ? ' (first lines)' : ''}`, fenced(c.text, tag));
    }
  }
  if (bare > MAX_BARE_CHUNKS) lines.push(`- and ${plural(bare - MAX_BARE_CHUNKS, 'more chunk')}`);
  return lines.join('\n');
}

/** The chunks by line, with neighbouring chunks of one symbol that carry no code (parts of a split symbol) as one. */
function mergeBareParts(chunks: readonly BudgetedChunk[]): BudgetedChunk[] {
  const out: BudgetedChunk[] = [];
  for (const c of [...chunks].sort((a, b) => a.startLine - b.startLine)) {
    const last = out.at(-1);
    const sameSymbol = last !== undefined && last.symbol === c.symbol && last.kind === c.kind && last.parent === c.parent;
    if (sameSymbol && last.text === undefined && c.text === undefined) out[out.length - 1] = { ...last, endLine: Math.max(last.endLine, c.endLine) };
    else out.push(c);
  }
  return out;
}

function renderTrace(cycles: readonly CycleTrace[]): string {
  const lines = ['# Cycles'];
  for (const c of cycles) {
    lines.push(`${c.n}. ${clip(c.query.text, MAX_REASON_CHARS)}: ${c.hits} hits, ${c.newFiles} new files, ${c.high} high, ${c.ms} ms`);
    const list = (label: string, items: readonly string[]): void => {
      if (items.length === 0) return;
      const more = items.length > MAX_TRACE_ITEMS ? ` (+${items.length - MAX_TRACE_ITEMS})` : '';
      lines.push(`   ${label}: ${clip(items.slice(0, MAX_TRACE_ITEMS).join(', '), MAX_REASON_CHARS)}${more}`);
    };
    list('keywords', c.query.keywords);
    list('learned', c.newTerms);
    list('excluded', c.excluded);
    list('gaps', c.gaps);
  }
  return lines.join('\n');
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
