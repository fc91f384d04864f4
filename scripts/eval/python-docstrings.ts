/**
 * Python docstrings as the doc2code sets define them: the string literal (or implicitly concatenated literals)
 * that is the first statement of a module, a `def` body or a `class` body; f-strings are not docstrings.
 * The `python-docstrings` blank rule blanks every one of them, quotes and prefixes included.
 */
import type Parser from 'tree-sitter';
import { blankSpans, parseTree } from './parse-tree.js';

const STRING_TYPES = new Set(['string', 'concatenated_string']);

/** True for a string literal node without an f prefix (checked on each part of a concatenation). */
function isPlainString(node: Parser.SyntaxNode): boolean {
  const parts = node.type === 'concatenated_string' ? node.namedChildren.filter((c) => c.type === 'string') : [node];
  return parts.length > 0 && parts.every((p) => !/^[a-zA-Z]*[fF]/.test(p.firstChild?.text ?? ''));
}

/** The docstring node of a module, or of a `block` that is a def's or class's body; null when it has none. */
export function docstringOf(container: Parser.SyntaxNode): Parser.SyntaxNode | null {
  const first = container.namedChildren.find((c) => c.type !== 'comment');
  if (first?.type !== 'expression_statement' || first.namedChildCount !== 1) return null;
  const value = first.namedChildren[0]!;
  return STRING_TYPES.has(value.type) && isPlainString(value) ? value : null;
}

/** Every docstring of a parsed file: the module's, and each def's and class's at any depth, in source order. */
export function pythonDocstrings(root: Parser.SyntaxNode): Parser.SyntaxNode[] {
  const out: Parser.SyntaxNode[] = [];
  const moduleDoc = docstringOf(root);
  if (moduleDoc !== null) out.push(moduleDoc);
  for (const def of root.descendantsOfType(['function_definition', 'class_definition'])) {
    const body = def.childForFieldName('body');
    const doc = body === null ? null : docstringOf(body);
    if (doc !== null) out.push(doc);
  }
  return out.sort((a, b) => a.startIndex - b.startIndex);
}

/** The `python-docstrings` blank rule: every docstring's characters except newlines become spaces. */
export function blankPythonDocstrings(text: string): string {
  return blankSpans(text, pythonDocstrings(parseTree('python', text).rootNode));
}
