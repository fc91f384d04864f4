import { createRequire } from 'node:module';
import type { ChunkKind } from '../../types.js';
import type { LanguageSpec, SyntaxNode } from './language-spec.js';
import { classifyByRules, textOf } from './rule-classifier.js';
import { COMPOUND_MEMBER_CALLS, COMPOUND_TYPES } from './reference-patterns.js';

const require = createRequire(import.meta.url);

/** The keyword a `class_declaration` was written with: class, struct, enum, actor or extension. */
function declarationKind(node: SyntaxNode): string {
  return node.childForFieldName('declaration_kind')?.type ?? 'class';
}

/** Enums are enums; classes, structs, actors and extensions (named by the type they extend) are classes. */
function typeKind(node: SyntaxNode): ChunkKind {
  return declarationKind(node) === 'enum' ? 'enum' : 'class';
}

/** A type's name without generic parameters; an extension's is the extended type (`extension Array: P` -> `Array`). */
function typeName(node: SyntaxNode, text: string): string | null {
  const name = node.childForFieldName('name');
  if (name === null) return null;
  const raw = textOf(name.type === 'user_type' ? (name.namedChildren[name.namedChildren.length - 1] ?? name) : name, text);
  return raw === null ? null : raw.replace(/<.*$/s, '').trim();
}

/** `let x = ...` / `var x: T` at file level: named by its first bound identifier. */
function propertyName(node: SyntaxNode, text: string): string | null {
  const pattern = node.childForFieldName('name');
  if (pattern === null) return null;
  return textOf(pattern.childForFieldName('bound_identifier') ?? pattern, text);
}

/**
 * Swift, parsed with a WASM grammar (no native build of tree-sitter-swift installs here): classes, structs,
 * actors and extensions as class containers (extensions named by the extended type, as Rust impl blocks),
 * enums as enum containers, their functions, initialisers, deinitialisers and subscripts as methods (stored
 * and computed properties stay in the type's chunk), protocols as interfaces (requirements kept whole),
 * top-level functions, constants and typealiases; `///` comments and attributes (`@MainActor`) glued,
 * imports dropped.
 */
export const swift: LanguageSpec = {
  grammar: () => {
    throw new Error('the Swift grammar is a WASM build: it loads in prepare()');
  },
  wasm: () => require.resolve('@repomix/tree-sitter-wasms/out/tree-sitter-swift.wasm'),
  leading: new Set(['comment', 'multiline_comment', 'attribute']),
  comments: new Set(['comment', 'multiline_comment']),
  references: [COMPOUND_TYPES, COMPOUND_MEMBER_CALLS],
  classify: classifyByRules({
    imports: new Set(['import_declaration']),
    definitions: {
      class_declaration: { kind: 'class', name: typeName, kindOf: typeKind, body: (node) => node.childForFieldName('body'), classLike: true },
      protocol_declaration: { kind: 'interface' },
      function_declaration: { kind: 'function' },
      init_declaration: { kind: 'function', name: () => 'init' },
      deinit_declaration: { kind: 'function', name: () => 'deinit' },
      subscript_declaration: { kind: 'function', name: () => 'subscript' },
      property_declaration: { kind: 'const', name: propertyName, inClass: false },
      typealias_declaration: { kind: 'type', inClass: false },
    },
  }),
};
