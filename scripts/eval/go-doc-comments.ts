/**
 * Go doc comments as the doc2code sets define them: the run of `//` or `/* *\/` comments directly above a
 * top-level declaration (func, method, type, const, var) or above a spec of a grouped `type ( ... )`
 * declaration, each comment on the line right after the previous one and none trailing code on its line.
 * The `go-doc-comments` blank rule blanks those runs; other comments (package docs, field and inline comments) stay.
 */
import type Parser from 'tree-sitter';
import { blankSpans, parseTree } from './parse-tree.js';

const TOP_LEVEL = new Set(['function_declaration', 'method_declaration', 'type_declaration', 'const_declaration', 'var_declaration']);

/** The comments directly above `node` among its siblings, top first; empty when there are none. */
export function docCommentOf(node: Parser.SyntaxNode): Parser.SyntaxNode[] {
  const out: Parser.SyntaxNode[] = [];
  let below = node;
  for (let c = node.previousSibling; c !== null && c.type === 'comment'; c = c.previousSibling) {
    if (c.endPosition.row !== below.startPosition.row - 1) break;
    const before = c.previousSibling;
    if (before !== null && before.type !== 'comment' && before.endPosition.row >= c.startPosition.row) break; // trails code
    out.unshift(c);
    below = c;
  }
  return out;
}

/** The declarations whose doc comments count: top-level ones and the specs of grouped type declarations. */
export function goDocumentedNodes(root: Parser.SyntaxNode): Parser.SyntaxNode[] {
  const out: Parser.SyntaxNode[] = [];
  for (const decl of root.namedChildren) {
    if (!TOP_LEVEL.has(decl.type)) continue;
    out.push(decl);
    if (decl.type === 'type_declaration' && decl.children.some((c) => c.type === '(')) {
      out.push(...decl.namedChildren.filter((c) => c.type === 'type_spec' || c.type === 'type_alias'));
    }
  }
  return out;
}

/** The `go-doc-comments` blank rule: every doc comment's characters except newlines become spaces. */
export function blankGoDocComments(text: string): string {
  const root = parseTree('go', text).rootNode;
  return blankSpans(text, goDocumentedNodes(root).flatMap(docCommentOf));
}
