import type { LanguageSpec, SyntaxNode } from './language-spec.js';
import { loadGrammar } from './load-grammar.js';
import { classifyByRules, fieldText, textOf } from './rule-classifier.js';
import { COMPOUND_MEMBER_CALLS, COMPOUND_TYPES, DECLARED_TYPES } from './reference-patterns.js';

/** A member with a body (block or `=>`); an abstract, extern, partial or interface member without one stays in its type's chunk. */
function bodiedName(node: SyntaxNode, text: string): string | null {
  return node.childForFieldName('body') === null ? null : fieldText(node, 'name', text);
}

/** `operator +`, `operator int` (conversions). */
function operatorName(node: SyntaxNode, text: string): string | null {
  if (node.childForFieldName('body') === null) return null;
  const op = node.childForFieldName('operator') ?? node.childForFieldName('type');
  return op === null ? 'operator' : `operator ${textOf(op, text) ?? ''}`;
}

/** A property or indexer whose accessors hold statements (`get { ... }`) is code; auto-properties and `=> expr` ones stay with the fields. */
function accessorsHaveBlocks(node: SyntaxNode): boolean {
  const accessors = node.childForFieldName('accessors');
  return accessors?.namedChildren.some((a) => a.type === 'accessor_declaration' && a.childForFieldName('body')?.type === 'block') ?? false;
}

/** The file-scoped namespace (`namespace Acme.Store;`) a top-level declaration follows, or null. */
function fileNamespace(node: SyntaxNode, text: string): string | null {
  if (node.parent?.type !== 'compilation_unit') return null;
  for (let sibling = node.parent.firstNamedChild; sibling !== null && sibling.startIndex < node.startIndex; sibling = sibling.nextNamedSibling) {
    if (sibling.type === 'file_scoped_namespace_declaration') return fieldText(sibling, 'name', text);
  }
  return null;
}

const TYPE = { body: (node: SyntaxNode) => node.childForFieldName('body'), classLike: true, parent: fileNamespace } as const;

/**
 * C#: namespaces (block ones as namespace containers; after a file-scoped `namespace X;` the following types get
 * X as parent, the same as inside a block); classes, structs and records (kind class), interfaces as containers;
 * enums and delegates (type) as single chunks. Methods, constructors, destructors, operators, and properties
 * and indexers (named `this`) whose accessors have block bodies are methods; fields, events, auto-properties,
 * `=>` properties and members without a body stay in their type's chunks. Attributes (`[Obsolete]`), `///` XML
 * doc comments and `#region`/`#endregion` lines stay with the next member; members inside `#if`/`#else` blocks are
 * members of the enclosing type; `using` directives and `extern alias` are dropped.
 */
export const csharp: LanguageSpec = {
  grammar: () => loadGrammar('tree-sitter-c-sharp'),
  leading: new Set(['comment', 'attribute_list', 'preproc_region', 'preproc_endregion']),
  comments: new Set(['comment']),
  references: [COMPOUND_TYPES, COMPOUND_MEMBER_CALLS, DECLARED_TYPES],
  // Members inside `#if DEBUG ... #else ... #endif` are members of the enclosing type or namespace.
  transparent: (node) => node.type === 'preproc_if' || node.type === 'preproc_elif' || node.type === 'preproc_else',
  classify: classifyByRules({
    imports: new Set(['using_directive', 'extern_alias_directive']),
    definitions: {
      namespace_declaration: { kind: 'namespace', body: (node) => node.childForFieldName('body') },
      class_declaration: { kind: 'class', ...TYPE },
      struct_declaration: { kind: 'class', ...TYPE },
      record_declaration: { kind: 'class', ...TYPE },
      interface_declaration: { kind: 'interface', ...TYPE },
      enum_declaration: { kind: 'enum', parent: fileNamespace },
      delegate_declaration: { kind: 'type', parent: fileNamespace },
      method_declaration: { kind: 'function', name: bodiedName },
      constructor_declaration: { kind: 'function', name: bodiedName },
      destructor_declaration: { kind: 'function', name: (node, text) => `~${fieldText(node, 'name', text) ?? ''}` },
      operator_declaration: { kind: 'function', name: operatorName },
      conversion_operator_declaration: { kind: 'function', name: operatorName },
      indexer_declaration: { kind: 'function', name: (node) => (accessorsHaveBlocks(node) ? 'this' : null) },
      property_declaration: { kind: 'function', name: (node, text) => (accessorsHaveBlocks(node) ? fieldText(node, 'name', text) : null) },
    },
  }),
};
