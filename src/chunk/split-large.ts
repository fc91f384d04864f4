import type Parser from 'tree-sitter';
import { splitSpanByLines } from './line-window-chunker.js';
import type { SourceText, Span } from './source-text.js';
import type { SpanTokens } from './span-tokens.js';
import type { CountTokens } from './token-estimate.js';

/** Deepest syntax recursion when splitting; deeper nesting is cut by lines (keeps the stack small). */
const MAX_SPLIT_DEPTH = 40;
/** Nodes with more children (data arrays, giant literals) are cut by lines: reading each child costs µs. */
const MAX_SPLIT_CHILDREN = 2000;

/** Inputs shared by one split. */
export interface SplitContext {
  readonly source: SourceText;
  readonly budget: number;
  readonly count: CountTokens;
  /** Fast span counts for the same file and counter. */
  readonly spans: SpanTokens;
}

/** A span with its token count. */
interface Atom extends Span {
  readonly tokens: number;
}

/**
 * Cuts `span` (holding `node`, plus any leading comments) into atoms of at most `budget` tokens at
 * child-node boundaries, recursing into children too big on their own, lines as the last resort.
 */
function atomize(ctx: SplitContext, node: Parser.SyntaxNode | null, span: Span, depth: number, out: Atom[]): void {
  const tokens = ctx.spans.tokens(span.start, span.end);
  if (tokens <= ctx.budget) out.push({ start: span.start, end: span.end, tokens });
  else if (node === null) splitByLines(ctx, span, out);
  else {
    // A cursor reads the children's offsets without making a node object per child (the binding's `children` does,
    // and caches each in the tree): most children fit the budget and are never needed as nodes.
    const cursor = node.walk();
    try {
      atomizeChildren(ctx, cursor, span, depth, out);
    } finally {
      // A WASM grammar's cursor lives in the module's memory and is freed by hand; a native one has no delete.
      (cursor as { delete?: () => void }).delete?.();
    }
  }
}

/**
 * `atomize` for a node known to exceed the budget (its span's `tokens`), the cursor standing on it; returns with
 * the cursor back there.
 */
function atomizeChildren(ctx: SplitContext, cursor: Parser.TreeCursor, span: Span, depth: number, out: Atom[]): void {
  const starts: number[] = [];
  if (depth <= MAX_SPLIT_DEPTH && cursor.gotoFirstChild()) {
    do starts.push(cursor.startIndex);
    while (starts.length <= MAX_SPLIT_CHILDREN && cursor.gotoNextSibling());
    cursor.gotoParent();
  }
  if (starts.length === 0 || starts.length > MAX_SPLIT_CHILDREN) {
    splitByLines(ctx, span, out);
    return;
  }
  cursor.gotoFirstChild();
  // Child i owns [its start, next child's start); the first also owns the span's prefix, the last its suffix.
  for (let i = 0; i < starts.length; i += 1) {
    if (i > 0) cursor.gotoNextSibling();
    const start = i === 0 ? span.start : Math.max(span.start, starts[i] as number);
    const next = starts[i + 1];
    const end = next === undefined ? span.end : Math.min(span.end, Math.max(start, next));
    if (end <= start) continue;
    const tokens = ctx.spans.tokens(start, end);
    if (tokens <= ctx.budget) out.push({ start, end, tokens });
    else atomizeChildren(ctx, cursor, { start, end }, depth + 1, out);
  }
  cursor.gotoParent();
}

/** Whole lines as the last resort (chars for a line over the budget). */
function splitByLines(ctx: SplitContext, span: Span, out: Atom[]): void {
  for (const piece of splitSpanByLines(ctx.source, span, ctx.budget, ctx.count)) {
    out.push({ ...piece, tokens: ctx.count(ctx.source.text.slice(piece.start, piece.end)) });
  }
}

/** Greedily joins consecutive atoms while the summed tokens stay within the budget. */
function packAtoms(atoms: readonly Atom[], budget: number): Span[] {
  const parts: Span[] = [];
  let current: { start: number; end: number; tokens: number } | null = null;
  for (const atom of atoms) {
    if (current !== null && current.tokens + atom.tokens <= budget) {
      current.end = atom.end;
      current.tokens += atom.tokens;
      continue;
    }
    if (current !== null) parts.push({ start: current.start, end: current.end });
    current = { start: atom.start, end: atom.end, tokens: atom.tokens };
  }
  if (current !== null) parts.push({ start: current.start, end: current.end });
  return parts;
}

/**
 * Splits the span of a syntax node into consecutive parts of at most `ctx.budget` tokens each,
 * cutting at statement/member boundaries (recursively), then lines, then chars. One part if it fits.
 */
export function splitNodeSpan(ctx: SplitContext, node: Parser.SyntaxNode | null, span: Span): Span[] {
  const atoms: Atom[] = [];
  atomize(ctx, node, span, 0, atoms);
  return packAtoms(atoms, ctx.budget);
}

/** Splits a run of sibling nodes (e.g. module-level statements) into parts within the budget. */
export function splitNodeRun(ctx: SplitContext, nodes: readonly Parser.SyntaxNode[], span: Span): Span[] {
  const atoms: Atom[] = [];
  const whole = ctx.spans.tokens(span.start, span.end);
  if (whole <= ctx.budget) return [span];
  for (let i = 0; i < nodes.length; i += 1) {
    const node = nodes[i] as Parser.SyntaxNode;
    const start = i === 0 ? span.start : Math.max(span.start, node.startIndex);
    const next = nodes[i + 1];
    const end = next === undefined ? span.end : Math.min(span.end, Math.max(start, next.startIndex));
    if (end > start) atomize(ctx, node, { start, end }, 1, atoms);
  }
  if (nodes.length === 0) atomize(ctx, null, span, 1, atoms);
  return packAtoms(atoms, ctx.budget);
}
