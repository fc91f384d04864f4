import type { LanguageSpec, SyntaxNode } from './language-spec.js';
import { loadGrammar } from './load-grammar.js';
import { classifyByRules, childOfType, fieldText, textOf } from './rule-classifier.js';
import { COMPOUND_MEMBER_CALLS, COMPOUND_TYPES, CONSTANT_PATHS, PATH_SEGMENTS } from './reference-patterns.js';

const body = (node: SyntaxNode): SyntaxNode | null => node.childForFieldName('body');

/** A method with a body; an abstract or interface method (`function f(): T;`) stays in its container's chunk. */
function methodName(node: SyntaxNode, text: string): string | null {
  return node.childForFieldName('body') === null ? null : fieldText(node, 'name', text);
}

/** A braced `namespace App\Http { ... }` is a container named `App.Http`; the statement form `namespace App;` is leftover module code. */
function namespaceName(node: SyntaxNode, text: string): string | null {
  if (node.childForFieldName('body') === null) return null;
  return fieldText(node, 'name', text)?.replace(/^\\/, '').replace(/\\/g, '.') ?? null;
}

/** The global namespace block `namespace { ... }` holds top-level code: walked through. */
function transparent(node: SyntaxNode): boolean {
  const block = node.type === 'compound_statement' ? node.parent : node;
  return block !== null && block.type === 'namespace_definition' && block.childForFieldName('name') === null
    && (node === block || block.childForFieldName('body')?.startIndex === node.startIndex);
}

/** `const A = 1, B = 2;` is named by its first constant. */
function constName(node: SyntaxNode, text: string): string | null {
  return textOf(childOfType(childOfType(node, 'const_element') ?? node, 'name'), text);
}

/**
 * PHP (with or without HTML around `<?php`): classes, interfaces, traits (as classes) and enums as containers
 * of methods (abstract and interface signatures, properties, constants, cases and trait `use` stay in the
 * container's chunk), functions, top-level constants, braced namespaces as namespace containers. PHPDoc and
 * `//`/`#` comments are glued to what follows, attributes `#[...]` are part of their declaration (the signature
 * starts after them); namespace `use` imports are dropped; `namespace App;`, `declare(...)`, HTML and other
 * statements are module code.
 */
export const php: LanguageSpec = {
  grammar: () => (loadGrammar('tree-sitter-php') as { php: unknown }).php,
  leading: new Set(['comment', 'attribute_list']),
  comments: new Set(['comment']),
  references: [COMPOUND_TYPES, CONSTANT_PATHS, COMPOUND_MEMBER_CALLS, PATH_SEGMENTS],
  transparent,
  classify: classifyByRules({
    imports: new Set(['namespace_use_declaration']),
    definitions: {
      namespace_definition: { kind: 'namespace', name: namespaceName, body },
      class_declaration: { kind: 'class', body, classLike: true },
      interface_declaration: { kind: 'interface', body, classLike: true },
      trait_declaration: { kind: 'class', body, classLike: true },
      enum_declaration: { kind: 'enum', body, classLike: true },
      function_definition: { kind: 'function' },
      method_declaration: { kind: 'function', name: methodName },
      const_declaration: { kind: 'const', name: constName, inClass: false },
    },
  }),
};
