import type Parser from 'tree-sitter';
import { docText } from './chunk-record.js';
import type { Container, Item, Run, Unit, WalkContext } from './symbol-units.js';

type Node = Parser.SyntaxNode;

/** Start of the first child that is not a comment or decorator, looking inside a modifier list that opens with annotations (Java, Kotlin); null if none. */
function codeStart(node: Node, ctx: WalkContext): number | null {
  // Sibling by sibling, not `children`: the answer is nearly always the first or second child.
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    if (ctx.spec.leading.has(child.type)) continue;
    const first = child.firstChild;
    if (first === null || !ctx.spec.leading.has(first.type)) return child.startIndex;
    const inner = codeStart(child, ctx);
    if (inner !== null) return inner;
  }
  return null;
}

/** Start of the first child that is not a comment or decorator: where a signature begins. */
export function signatureStart(node: Node, ctx: WalkContext): number {
  return codeStart(node, ctx) ?? node.startIndex;
}

function lastItem(items: Item[]): Unit | Run | null {
  const last = items[items.length - 1];
  return last === undefined || last.type === 'barrier' ? null : last;
}

function addLeftover(items: Item[], node: Node): void {
  const last = lastItem(items);
  if (last !== null && last.type === 'run') {
    last.end = Math.max(last.end, node.endIndex);
    last.nodes.push(node);
  } else {
    items.push({ type: 'run', start: node.startIndex, end: node.endIndex, nodes: [node] });
  }
}

/** Leading comments/decorators glued to the next node: decorators always, comments with no blank line between. */
function gluedTail(pending: Node[], next: Node, ctx: WalkContext): number {
  let first = pending.length;
  let below = next.startPosition.row;
  for (let i = pending.length - 1; i >= 0; i -= 1) {
    const node = pending[i] as Node;
    // A line comment that takes its newline (Rust) ends at column 0 of the next row.
    const endRow = node.endPosition.column === 0 && node.endPosition.row > node.startPosition.row ? node.endPosition.row - 1 : node.endPosition.row;
    if (ctx.spec.comments.has(node.type) && endRow + 1 < below) break;
    first = i;
    below = node.startPosition.row;
  }
  return first;
}

/** Joins overload signatures with the following declaration of the same name. */
function groupOverloads(items: Item[]): Item[] {
  const out: Item[] = [];
  for (const item of items) {
    const prev = out[out.length - 1];
    if (item.type === 'unit' && prev?.type === 'unit' && prev.isSignature && prev.symbol === item.symbol && prev.kind === item.kind && item.nested === null) {
      out[out.length - 1] = { ...prev, end: item.end, nodes: [...prev.nodes, ...item.nodes], isSignature: item.isSignature };
    } else {
      out.push(item);
    }
  }
  return out;
}

/** Transparent blocks nest no deeper than this (C `#ifdef` inside `#ifdef`). */
const MAX_TRANSPARENT_DEPTH = 16;

/**
 * Where a token of a transparent block stands: `open` (its first line's tokens: `#ifdef`, `extern`, `{`), `head`
 * (a named node on that line: the `#ifdef` name, the `#if` condition), `close` (its last token: `#endif`, `}`),
 * `inner` (any other token of the block) or `none` (not from a transparent block).
 */
type Role = 'open' | 'head' | 'close' | 'inner' | 'none';

/** A body child and its role. */
interface BodyChild {
  readonly node: Node;
  readonly role: Role;
}

/** The body's children, each transparent block replaced by its own children (recursively). */
function bodyChildren(body: Node, ctx: WalkContext): BodyChild[] {
  const transparent = ctx.spec.transparent;
  if (transparent === undefined) return body.children.map((node) => ({ node, role: 'none' }));
  const out: BodyChild[] = [];
  const expand = (block: Node, depth: number): void => {
    const children = block.children;
    const firstRow = block.startPosition.row;
    children.forEach((node, index) => {
      if (node.isNamed && depth < MAX_TRANSPARENT_DEPTH && transparent(node)) expand(node, depth + 1);
      else if (depth === 0) out.push({ node, role: 'none' });
      else if (node.isNamed) out.push({ node, role: node.startPosition.row === firstRow ? 'head' : 'none' });
      else if (index === children.length - 1) out.push({ node, role: 'close' });
      else out.push({ node, role: node.startPosition.row === firstRow ? 'open' : 'inner' });
    });
  };
  expand(body, 0);
  return out;
}

/** Last line (1-based) of a node, not counting a newline it takes (a C preprocessor line ends at column 0 of the next row). */
function lastLineOf(node: Node): number {
  const { row, column } = node.endPosition;
  return column === 0 && row > node.startPosition.row ? row : row + 1;
}

/**
 * Lists a container's content in source order: symbol units (with their glued comments and
 * decorators), runs of leftover nodes, and barriers where imports were dropped.
 */
export function walkContainer(container: Container, ctx: WalkContext): Item[] {
  const body = container.body;
  if (body === null) return [];
  const items: Item[] = [];
  let pending: Node[] = [];
  const flushPending = (count: number): void => {
    for (const node of pending.slice(0, count)) addLeftover(items, node);
    pending = pending.slice(count);
  };
  const children = bodyChildren(body, ctx);
  for (let i = 0; i < children.length; i += 1) {
    const { node: child, role } = children[i] as BodyChild;
    const isBrace = child.type === '{' || child.type === '}';
    if (role === 'open') {
      // A transparent block's opening line (`#ifdef X`, `extern "C" {`) leads into what follows, like a decorator.
      pending.push(child);
      continue;
    }
    if (role === 'close' || role === 'inner') {
      // Its closing token (`#endif`, `}`) ends the item before it; another token (`;`) joins the item whose line it ends.
      const last = lastItem(items);
      const joins = role === 'close' || ctx.source.lineOf(last === null ? 0 : last.end - 1) === child.startPosition.row + 1;
      if (last !== null && pending.length === 0 && joins) last.end = Math.max(last.end, child.endIndex);
      else {
        flushPending(pending.length);
        addLeftover(items, child);
      }
      continue;
    }
    if (!child.isNamed) {
      if (isBrace && (i === 0 || i === children.length - 1) && body.type !== 'program') continue;
      const last = lastItem(items);
      if (last !== null && pending.length === 0) last.end = Math.max(last.end, child.endIndex);
      else addLeftover(items, child);
      continue;
    }
    if (ctx.spec.leading.has(child.type)) {
      const last = lastItem(items);
      // A comment on the line where the previous item ends belongs to that item.
      if (ctx.spec.comments.has(child.type) && pending.length === 0 && last !== null && child.startPosition.row === ctx.source.lineOf(last.end - 1) - 1) {
        last.end = Math.max(last.end, child.endIndex);
        if (last.type === 'run') last.nodes.push(child);
      } else {
        pending.push(child);
      }
      continue;
    }
    const classified = ctx.spec.classify(child, container, ctx);
    if (classified === 'import') {
      flushPending(pending.length);
      items.push({ type: 'barrier' });
      ctx.importLines.push([child.startPosition.row + 1, lastLineOf(child)]);
    } else if (classified === null && role === 'head' && pending.length > 0) {
      pending.push(child);
    } else if (classified === null) {
      flushPending(pending.length);
      addLeftover(items, child);
    } else {
      const glued = gluedTail(pending, child, ctx);
      const lead = pending.slice(glued);
      flushPending(glued);
      pending = [];
      const unit: Unit = { ...classified, declStart: signatureStart(child, ctx) };
      if (lead.length > 0) unit.start = (lead[0] as Node).startIndex;
      unit.doc = docText(lead.filter((n) => ctx.spec.comments.has(n.type)).map((n) => ctx.source.text.slice(n.startIndex, n.endIndex)).join('\n'));
      if (unit.doc === '' && ctx.spec.innerDoc !== undefined) unit.doc = docText(ctx.spec.innerDoc(child, ctx.source.text));
      items.push(unit);
    }
  }
  flushPending(pending.length);
  return groupOverloads(items);
}
