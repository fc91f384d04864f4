/**
 * Go adapter of the doc2code builder: exported funcs, exported methods of exported types, and exported types
 * (each type_spec), with the first paragraph of the `//` or `/* *\/` doc comment directly above as plain text
 * (directives, code blocks, lists and doc links reduced or dropped).
 */
import type Parser from 'tree-sitter';
import { docCommentOf, goDocumentedNodes } from '../eval/go-doc-comments.js';
import { parseTree } from '../eval/parse-tree.js';
import type { DocumentedSymbol } from './symbols.js';

const isExported = (name: string): boolean => /^\p{Lu}/u.test(name);

/** The text lines of a comment run: `//` and one space, or `/*`, `*\/` and a leading ` * ` removed. */
function commentLines(comments: readonly Parser.SyntaxNode[]): string[] {
  return comments.flatMap((c) =>
    c.text.startsWith('//')
      ? [c.text.slice(2).replace(/^ /, '')]
      : c.text.slice(2, -2).split(/\r?\n/).map((l) => l.replace(/^\s*\* ?/, '')),
  );
}

/** Go doc links and markup reduced to their text: `[Foo]`, `[pkg.Foo]` -> the name; URLs dropped. */
export function stripGoDoc(text: string): string {
  return text
    .replace(/\[([*\w.]+)\]/g, '$1')
    .replace(/\bhttps?:\/\/\S+/g, '')
    .replace(/`+([^`]*)`+/g, '$1');
}

/**
 * The first paragraph of a doc comment as plain text: directive lines (`//go:generate`, `//nolint:x`) skipped,
 * ending at a blank line, an indented line (code or list), a link definition or a `Deprecated:` note.
 */
export function goDocParagraph(comments: readonly Parser.SyntaxNode[]): string {
  const kept: string[] = [];
  for (const line of commentLines(comments)) {
    if (/^[a-z0-9]+:\S/.test(line) && !line.includes(' ')) continue; // a directive
    if (line.trim() === '') {
      if (kept.length > 0) break;
      continue;
    }
    if (/^\s/.test(line) || /^\[[^\]]+\]:\s/.test(line) || /^Deprecated:/.test(line)) break;
    kept.push(line.trim());
  }
  return stripGoDoc(kept.join('\n')).replace(/\s+/g, ' ').trim();
}

/** The receiver's type name of a method (`(c *Command)`, `(s Set[T])` -> Command, Set), or null. */
function receiverType(method: Parser.SyntaxNode): string | null {
  const param = method.childForFieldName('receiver')?.namedChildren.find((c) => c.type === 'parameter_declaration');
  let type = param?.childForFieldName('type') ?? null;
  while (type !== null && (type.type === 'pointer_type' || type.type === 'generic_type' || type.type === 'parenthesized_type')) {
    type = type.type === 'generic_type' ? type.childForFieldName('type') : type.namedChildren[0] ?? null;
  }
  return type?.type === 'type_identifier' ? type.text : null;
}

function symbolOf(path: string, symbol: string, name: string, node: Parser.SyntaxNode, docAnchor: Parser.SyntaxNode): DocumentedSymbol {
  const comments = docCommentOf(docAnchor);
  return {
    path, symbol, name, startLine: node.startPosition.row + 1, endLine: node.endPosition.row + 1,
    paragraph: comments.length === 0 ? null : goDocParagraph(comments),
  };
}

/** The exported symbols of one Go file, documented or not. */
export function goSymbols(path: string, text: string): DocumentedSymbol[] {
  const out: DocumentedSymbol[] = [];
  const root = parseTree('go', text).rootNode;
  for (const node of goDocumentedNodes(root)) {
    const name = node.childForFieldName('name')?.text;
    if (node.type === 'function_declaration' && name !== undefined && isExported(name)) {
      out.push(symbolOf(path, name, name, node, node));
    } else if (node.type === 'method_declaration' && name !== undefined && isExported(name)) {
      const receiver = receiverType(node);
      if (receiver !== null && isExported(receiver)) out.push(symbolOf(path, `${receiver}.${name}`, name, node, node));
    } else if (node.type === 'type_declaration') {
      const specs = node.namedChildren.filter((c) => c.type === 'type_spec' || c.type === 'type_alias');
      const grouped = node.children.some((c) => c.type === '(');
      if (grouped) continue; // each spec of a group is its own node in goDocumentedNodes
      for (const spec of specs) {
        const specName = spec.childForFieldName('name')?.text;
        if (specName !== undefined && isExported(specName)) out.push(symbolOf(path, specName, specName, node, node));
      }
    } else if ((node.type === 'type_spec' || node.type === 'type_alias') && name !== undefined && isExported(name)) {
      out.push(symbolOf(path, name, name, node, node));
    }
  }
  return out;
}
