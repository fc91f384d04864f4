import type { LanguageSpec, SyntaxNode } from './language-spec.js';
import { loadGrammar } from './load-grammar.js';
import { classifyByRules, fieldText, textOf } from './rule-classifier.js';
import { COMPOUND_MEMBER_CALLS, COMPOUND_TYPES, PATH_SEGMENTS } from './reference-patterns.js';

/** The name a type is known by: `Point<T>` -> `Point`, `fmt::Display` -> `Display`, `&'a mut Vec<T>` -> `Vec`; other shapes (`[T]`, tuples) as written. */
function typeName(node: SyntaxNode | null, text: string): string | null {
  if (node === null) return null;
  switch (node.type) {
    case 'generic_type':
    case 'reference_type':
    case 'pointer_type':
      return typeName(node.childForFieldName('type'), text);
    case 'scoped_type_identifier':
      return fieldText(node, 'name', text);
    default:
      return textOf(node, text);
  }
}

/** `impl Type` and `impl Trait for Type` are both named by the type their methods belong to. */
function implName(node: SyntaxNode, text: string): string | null {
  return typeName(node.childForFieldName('type'), text);
}

/** `mod name { ... }` is a namespace; `mod name;` (the module lives in another file) stays in the module chunk. */
function modName(node: SyntaxNode, text: string): string | null {
  return node.childForFieldName('body') === null ? null : fieldText(node, 'name', text);
}

/**
 * Rust: functions; `impl Type` / `impl Trait for Type` blocks as class-like containers named by the type (their
 * fns are methods of that type); traits as interfaces (provided fns as methods; required fns, without a body, stay in the trait chunk); structs and unions
 * as classes, enums, type aliases, const/static items; inline `mod` blocks as namespaces; `macro_rules!` macros
 * as functions. Attributes (`#[derive]`, `#[test]`) and doc comments (`///`) stay with their item; `use` and
 * `extern crate` are dropped as imports; associated consts and types stay in their impl/trait chunk; inner
 * attributes (`#![...]`), `//!` crate docs, `mod x;` and `extern` blocks stay in the module chunk.
 */
export const rust: LanguageSpec = {
  grammar: () => loadGrammar('tree-sitter-rust'),
  leading: new Set(['line_comment', 'block_comment', 'attribute_item']),
  comments: new Set(['line_comment', 'block_comment']),
  references: [COMPOUND_TYPES, COMPOUND_MEMBER_CALLS, PATH_SEGMENTS],
  classify: classifyByRules({
    imports: new Set(['use_declaration', 'extern_crate_declaration']),
    definitions: {
      function_item: { kind: 'function' },
      impl_item: { kind: 'class', name: implName, body: (node) => node.childForFieldName('body'), classLike: true },
      trait_item: { kind: 'interface', body: (node) => node.childForFieldName('body'), classLike: true },
      struct_item: { kind: 'class' },
      union_item: { kind: 'class' },
      enum_item: { kind: 'enum' },
      type_item: { kind: 'type', inClass: false },
      const_item: { kind: 'const', inClass: false },
      static_item: { kind: 'const' },
      mod_item: { kind: 'namespace', name: modName, body: (node) => node.childForFieldName('body') },
      macro_definition: { kind: 'function' },
    },
  }),
};
