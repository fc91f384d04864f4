import type { LanguageSpec, SyntaxNode } from './language-spec.js';
import { loadGrammar } from './load-grammar.js';
import { classifyByRules, textOf } from './rule-classifier.js';

/** The docstring of a def or class (the string that opens its body), quotes and prefixes stripped; '' if none. */
function docstring(node: SyntaxNode, text: string): string {
  const decl = node.type === 'decorated_definition' ? node.childForFieldName('definition') : node;
  const first = decl?.childForFieldName('body')?.namedChildren[0];
  const literal = first?.type === 'expression_statement' ? first.namedChildren[0] : undefined;
  if (literal === undefined || literal.type !== 'string') return '';
  return (textOf(literal, text) ?? '').replace(/^[rRbBuUfF]*("""|'''|"|')/, '').replace(/("""|'''|"|')$/, '');
}

/** `NAME = value` (or `NAME: T = value`) at module level: a constant, named by its target. */
function assignedName(node: SyntaxNode, text: string): string | null {
  const assignment = node.namedChildren[0];
  if (assignment === undefined || assignment.type !== 'assignment') return null;
  const left = assignment.childForFieldName('left');
  return left?.type === 'identifier' ? textOf(left, text) : null;
}

/**
 * Python: functions, classes (methods as their own chunks, the class chunk keeping its docstring and class
 * attributes), decorators kept with what they decorate, module-level assignments as constants, imports dropped.
 */
export const python: LanguageSpec = {
  grammar: () => loadGrammar('tree-sitter-python'),
  leading: new Set(['comment', 'decorator']),
  comments: new Set(['comment']),
  innerDoc: docstring,
  references: [
    // module.function( and module.Class( — not self./cls. (the file's own members)
    /(?<![\w.])(?!self\.|cls\.)[a-z_]\w*\.([A-Za-z_]\w{2,})\s*\(/g,
    // base classes, raised and caught exceptions, decorators
    /^\s*class\s+\w+\s*\(\s*([A-Za-z_][\w.]*?)\s*[,)]/gm,
    /\b(?:raise|except)\s+(?:\w+\.)?([A-Z]\w+)/g,
    /^\s*@(?:\w+\.)?([A-Za-z_]\w{2,})/gm,
  ],
  classify: classifyByRules({
    imports: new Set(['import_statement', 'import_from_statement', 'future_import_statement']),
    unwrap: (node) => (node.type === 'decorated_definition' ? node.childForFieldName('definition') : null),
    definitions: {
      function_definition: { kind: 'function' },
      class_definition: { kind: 'class', body: (node) => node.childForFieldName('body'), classLike: true },
      expression_statement: { kind: 'const', name: assignedName, inClass: false },
    },
  }),
};
