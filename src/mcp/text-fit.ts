import { CHARS_PER_TOKEN } from './token-budget.js';

/** How much of one entry (a file or a hit) the text shows. */
export interface EntryDetail {
  /** Its heading (path, lines, relevance) and chunk list. */
  readonly shown: boolean;
  /** Its reason (and missing context), when it has one. */
  readonly withReason: boolean;
  /** Per code piece of the entry, in the order the entry buys them: the code shown (whole or its first lines), or undefined. */
  readonly code: ReadonlyArray<string | undefined>;
}

/** What a text shows of its entries, and whether it shows its optional extra part (the cycle trace, a note). */
export interface TextPlan {
  readonly entries: readonly EntryDetail[];
  readonly extra: boolean;
}

/** Most characters a text within `tokenBudget` approximate tokens may have (the estimate is characters / 4). */
export function maxCharsFor(tokenBudget: number): number {
  return Math.max(0, Math.floor(tokenBudget)) * CHARS_PER_TOKEN;
}

/**
 * Pure: the most a text can show within `maxChars`, measured on the rendered text itself (headings, fences, the
 * line that says what was left out: everything counts). Degrades in this order, each step taken only when the
 * rendering still fits: the best entry (first) always shows; then the extra part; then the best entry's code, piece
 * by piece, a piece that does not fit cut to its first whole lines; then the other entries in order (stopping at the
 * first that does not fit, so what is left out is the tail); then their code, likewise; then reasons. When
 * everything fits, everything shows. Only the best entry's heading may exceed a budget too small for it.
 */
export function fitTextPlan(o: {
  maxChars: number;
  /** Per entry, best first: its code pieces in the order to buy them. */
  code: ReadonlyArray<ReadonlyArray<string>>;
  hasExtra: boolean;
  render: (plan: TextPlan) => string;
}): TextPlan {
  const fits = (p: TextPlan): boolean => o.render(p).length <= o.maxChars;
  const full: TextPlan = { entries: o.code.map((c) => ({ shown: true, withReason: true, code: [...c] })), extra: o.hasExtra };
  if (fits(full)) return full;
  let plan: TextPlan = { entries: o.code.map((c) => ({ shown: false, withReason: false, code: c.map(() => undefined) })), extra: false };
  const changed = (i: number, change: Partial<EntryDetail>): TextPlan => ({ ...plan, entries: plan.entries.map((e, j) => (j === i ? { ...e, ...change } : e)) });
  const take = (next: TextPlan): boolean => {
    if (!fits(next)) return false;
    plan = next;
    return true;
  };
  const buyCode = (i: number): void =>
    o.code[i]!.forEach((text, j) => {
      const withCode = (t: string): TextPlan => changed(i, { code: plan.entries[i]!.code.map((c, k) => (k === j ? t : c)) });
      if (take(withCode(text))) return;
      // The longest run of whole first lines that fits (the rendered length grows with the lines kept).
      const lines = text.split('\n');
      let lo = 0;
      let hi = lines.length - 1;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (fits(withCode(lines.slice(0, mid).join('\n')))) lo = mid;
        else hi = mid - 1;
      }
      if (lo > 0) plan = withCode(lines.slice(0, lo).join('\n'));
    });
  const n = o.code.length;
  if (n > 0) plan = changed(0, { shown: true });
  if (o.hasExtra) take({ ...plan, extra: true });
  if (n > 0) buyCode(0);
  for (let i = 1; i < n && take(changed(i, { shown: true })); i += 1);
  for (let i = 1; i < n && plan.entries[i]!.shown; i += 1) buyCode(i);
  for (let i = 0; i < n && plan.entries[i]!.shown; i += 1) take(changed(i, { withReason: true }));
  return plan;
}

/** What a plan leaves out, counted for the line that says so. */
export interface LeftOut {
  /** Entries not shown, of `total`. */
  readonly entries: number;
  readonly total: number;
  /** Code pieces of shown entries left out or cut. */
  readonly code: number;
  /** Reasons of shown entries left out. */
  readonly reasons: number;
}

/** Pure: counts what `plan` leaves out of the entries' code pieces (`code`, as given to {@link fitTextPlan}). */
export function countLeftOut(plan: TextPlan, code: ReadonlyArray<ReadonlyArray<string>>, hasReason: (i: number) => boolean): LeftOut {
  let entries = 0;
  let pieces = 0;
  let reasons = 0;
  plan.entries.forEach((e, i) => {
    if (!e.shown) {
      entries += 1;
      return;
    }
    pieces += code[i]!.filter((text, j) => e.code[j] !== text).length;
    if (!e.withReason && hasReason(i)) reasons += 1;
  });
  return { entries, total: plan.entries.length, code: pieces, reasons };
}

/**
 * The one line that says what was left out to fit the budget and how to get it, or '' when nothing was:
 * `Left out to fit tokenBudget 150: 4 of 6 files, code of 3 chunks, 2 reasons; a larger tokenBudget shows more.`
 */
export function leftOutLine(o: { tokenBudget: number; left: LeftOut; noun: string; codeNoun: string; more?: string[]; tail?: string }): string {
  const { left } = o;
  const parts = [
    left.entries > 0 ? `${left.entries} of ${left.total} ${o.noun}${left.total === 1 ? '' : 's'}` : '',
    left.code > 0 ? `code of ${left.code} ${o.codeNoun}${left.code === 1 ? '' : 's'}` : '',
    left.reasons > 0 ? `${left.reasons} reason${left.reasons === 1 ? '' : 's'}` : '',
    ...(o.more ?? []),
  ].filter((p) => p !== '');
  if (parts.length === 0) return '';
  return `Left out to fit tokenBudget ${o.tokenBudget}: ${parts.join(', ')}; a larger tokenBudget shows more${o.tail ?? ''}.`;
}
