/**
 * Python adapter of the doc2code builder: public module-level functions and classes, and public methods of
 * public module-level classes (names not starting with `_`), with the first paragraph of their docstrings as
 * plain text (reST and markdown markup, doctest lines and field lists stripped).
 */
import type Parser from 'tree-sitter';
import { parseTree } from '../eval/parse-tree.js';
import { docstringOf } from '../eval/python-docstrings.js';
import type { DocumentedSymbol } from './symbols.js';

const isPublic = (name: string): boolean => !name.startsWith('_');

/** A line that ends the summary: a field list (`:param x:`), a directive, a doctest, a section header or rule. */
const STOP_LINE = /^(?::[A-Za-z][\w .]*:(?:\s|$)|\.\. |>>>|\.\.\.\s|(?:Args|Arguments|Parameters|Params|Returns?|Raises|Yields|Examples?|Notes?|Attributes|See Also|Usage|Warning|Deprecated)\s*:?\s*$|[-=~^]{3,}\s*$)/;

/** The value of a string literal node (prefix and quotes removed; escapes left as written). */
function literalText(node: Parser.SyntaxNode): string {
  const parts = node.type === 'concatenated_string' ? node.namedChildren.filter((c) => c.type === 'string') : [node];
  return parts.map((p) => p.text.replace(/^[a-zA-Z]*("""|'''|"|')([\s\S]*)\1$/, '$2')).join('');
}

/** `inspect.cleandoc`: first line stripped, the rest dedented by their common indent, blank edges dropped. */
export function cleandoc(doc: string): string[] {
  const lines = doc.replace(/\t/g, '        ').split(/\r?\n/);
  const indents = lines.slice(1).filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length);
  const indent = indents.length > 0 ? Math.min(...indents) : 0;
  const out = [lines[0]!.trim(), ...lines.slice(1).map((l) => l.slice(indent).trimEnd())];
  while (out.length > 0 && out[0] === '') out.shift();
  while (out.length > 0 && out.at(-1) === '') out.pop();
  return out;
}

/** reST / markdown inline markup reduced to its text; role targets to their last dotted part. */
export function stripRst(text: string): string {
  return text
    .replace(/:[A-Za-z][\w.:-]*:`([^`<]*?)\s*<[^`>]*>`/g, '$1')
    .replace(/:[A-Za-z][\w.:-]*:`[~!]?([^`]*)`/g, (_m, target: string) => target.split('.').at(-1) ?? target)
    .replace(/`([^`<]+?)\s*<[^`>]+>`_{1,2}/g, '$1')
    .replace(/`([^`]+)`_{1,2}/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\bhttps?:\/\/\S+/g, '')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/`/g, '')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|\s)\*([^*\s][^*]*?)\*(?=[\s.,;:!?)]|$)/g, '$1$2')
    .replace(/::(?=\s|$)/g, ':')
    .replace(/\|([^|\s][^|]*)\|/g, '$1');
}

/** The first paragraph of a docstring as plain text: '' when it opens with a directive or field list. */
export function docstringParagraph(docstring: Parser.SyntaxNode): string {
  const kept: string[] = [];
  for (const line of cleandoc(literalText(docstring))) {
    const t = line.trim();
    if (t === '' || STOP_LINE.test(t)) break;
    kept.push(t);
  }
  return stripRst(kept.join('\n')).replace(/\s+/g, ' ').trim();
}

/** The definition inside a possibly decorated node, and the node whose lines are the symbol's range. */
function unwrap(node: Parser.SyntaxNode): { def: Parser.SyntaxNode; outer: Parser.SyntaxNode } | null {
  const def = node.type === 'decorated_definition' ? node.childForFieldName('definition') : node;
  return def !== null && (def.type === 'function_definition' || def.type === 'class_definition') ? { def, outer: node } : null;
}

function symbolOf(path: string, qualified: string, name: string, def: Parser.SyntaxNode, outer: Parser.SyntaxNode): DocumentedSymbol {
  const body = def.childForFieldName('body');
  const doc = body === null ? null : docstringOf(body);
  return {
    path, symbol: qualified, name, startLine: outer.startPosition.row + 1, endLine: outer.endPosition.row + 1,
    paragraph: doc === null ? null : docstringParagraph(doc),
  };
}

/** The public documented-or-not symbols of one Python file (overload stubs and property setters included). */
export function pythonSymbols(path: string, text: string): DocumentedSymbol[] {
  const out: DocumentedSymbol[] = [];
  for (const node of parseTree('python', text).rootNode.namedChildren) {
    const top = unwrap(node);
    const name = top?.def.childForFieldName('name')?.text;
    if (top === null || name === undefined || !isPublic(name)) continue;
    out.push(symbolOf(path, name, name, top.def, top.outer));
    if (top.def.type !== 'class_definition') continue;
    for (const member of top.def.childForFieldName('body')?.namedChildren ?? []) {
      const m = unwrap(member);
      const method = m?.def.childForFieldName('name')?.text;
      if (m === null || m.def.type !== 'function_definition' || method === undefined || !isPublic(method)) continue;
      out.push(symbolOf(path, `${name}.${method}`, method, m.def, m.outer));
    }
  }
  return out;
}
