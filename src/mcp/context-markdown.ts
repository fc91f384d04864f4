import type { CycleTrace, StopReason } from '../retrieve/retrieval-result.js';
import { chunkLines, clip, languageTag, oneLine } from './markdown.js';
import { countLeftOut, fitTextPlan, leftOutLine, maxCharsFor, type TextPlan } from './text-fit.js';
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
 * The answer as Markdown for an agent to read, all of it within `tokenBudget` approximate tokens (characters / 4):
 * a summary line, then per file a heading (path, relevance, role, reason), its chunks (`startLine-endLine kind
 * symbol`) and fenced code for those that carry it, the cycle trace only with `trace`, and one line saying what was
 * left out to fit. At a small budget the best file's heading and as much of its code as fits stay; the trace (when
 * asked for), then the other files, their code and the reasons go first (see {@link fitTextPlan}).
 */
export function renderContextPack(p: ContextPackView, o: { trace: boolean }): string {
  const files = [...p.results, ...p.related];
  const pieces = files.map(codePieces);
  const code = pieces.map((list) => list.map((c) => c.text!));
  const render = (plan: TextPlan): string => {
    const shown = (list: readonly BudgetedFile[], from: number): string[] =>
      list.flatMap((f, i) => (plan.entries[from + i]!.shown ? [renderFile(withPlannedCode(f, pieces[from + i]!, plan.entries[from + i]!.code), plan.entries[from + i]!.withReason)] : []));
    const results = shown(p.results, 0);
    const related = shown(p.related, p.results.length);
    const left = countLeftOut(plan, code, (i) => files[i]!.reason !== '' || files[i]!.missingContext.length > 0);
    const more = [left.code === 0 && p.truncated ? 'some code' : '', o.trace && !plan.extra ? 'the trace' : ''].filter((m) => m !== '');
    const parts = [summary(p)];
    if (results.length > 0) parts.push('# Results', ...results);
    if (related.length > 0) parts.push('# Related', ...related);
    if (plan.extra) parts.push(renderTrace(p.cycles));
    const footer = leftOutLine({ tokenBudget: p.tokenBudget, left, noun: 'file', codeNoun: 'chunk', more });
    if (footer !== '') parts.push(footer);
    return parts.join('\n\n');
  };
  return render(fitTextPlan({ maxChars: maxCharsFor(p.tokenBudget), code, hasExtra: o.trace, render }));
}

function summary(p: ContextPackView): string {
  const found = p.results.length === 0 ? 'No file reached the high-relevance band (0.7)' : `${plural(p.results.length, 'file')} with relevance >= 0.7`;
  return `${found}, ${p.related.length} related (0.4-0.7); stopped (${p.stoppedBecause}) after ${plural(p.cycles.length, 'cycle')}.`;
}

/** The chunks of a file that carry code, in the order the text buys them: most relevant first, then by line. */
function codePieces(f: BudgetedFile): BudgetedChunk[] {
  return f.chunks.filter((c) => c.text !== undefined).sort((a, b) => b.relevance - a.relevance || a.startLine - b.startLine);
}

/** The file with the code the plan shows in place of the code the structured content carries. */
function withPlannedCode(f: BudgetedFile, pieces: readonly BudgetedChunk[], code: ReadonlyArray<string | undefined>): BudgetedFile {
  const chunks = f.chunks.map((c): BudgetedChunk => {
    const j = pieces.indexOf(c);
    if (j < 0) return c;
    const { text, textTruncated, ...rest } = c;
    const shown = code[j];
    if (shown === undefined) return rest;
    return textTruncated || shown !== text ? { ...rest, text: shown, textTruncated: true } : { ...rest, text: shown };
  });
  return { ...f, chunks };
}

function renderFile(f: BudgetedFile, withReason: boolean): string {
  const why = withReason && f.reason !== '' ? `: ${clip(f.reason, MAX_REASON_CHARS)}` : '';
  const lines = [`## ${oneLine(f.path)}  (${f.relevance.toFixed(2)}, ${f.role}${why})`];
  if (withReason && f.missingContext.length > 0) lines.push(`missing: ${clip(f.missingContext.join('; '), MAX_REASON_CHARS)}`);
  lines.push(...chunkLines(f.chunks, { tag: languageTag(f.path), maxBare: MAX_BARE_CHUNKS }));
  return lines.join('\n');
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
