import type { ChunkKind } from '../../types.js';
import type { LanguageSpec, SyntaxNode } from './language-spec.js';
import { loadGrammar } from './load-grammar.js';
import { childOfType, classifyByRules, fieldText, textOf } from './rule-classifier.js';
import { COMPOUND_MEMBER_CALLS, COMPOUND_TYPES } from './reference-patterns.js';

const BODIES = new Set(['class_body', 'enum_class_body']);

/** `class`, `interface` or `enum class` (all parse as class_declaration). */
function classKind(node: SyntaxNode): ChunkKind {
  if (node.children.some((c) => c.type === 'interface')) return 'interface';
  const modifiers = childOfType(node, 'modifiers');
  return modifiers?.namedChildren.some((m) => m.type === 'class_modifier' && m.firstChild?.type === 'enum') === true ? 'enum' : 'class';
}

/** A function with a body; an abstract or interface function (no body) stays in its type's chunk. */
function functionName(node: SyntaxNode, text: string): string | null {
  return childOfType(node, 'function_body') === null ? null : fieldText(node, 'name', text);
}

/** The name a type is known by: `List<T>` -> `List`, `String?` -> `String`, `kotlin.String` -> `String`. */
function typeName(node: SyntaxNode, text: string): string | null {
  if (node.type === 'user_type') {
    const ids = node.namedChildren.filter((c) => c.type === 'identifier');
    return textOf(ids[ids.length - 1], text);
  }
  const inner = childOfType(node, new Set(['user_type', 'nullable_type', 'parenthesized_type']));
  return inner === null ? textOf(node, text) : typeName(inner, text);
}

/** The receiver type of a top-level extension function or property (`fun String.slug()` -> `String`), or null. */
function receiverType(node: SyntaxNode, text: string): string | null {
  if (node.parent?.type !== 'source_file') return null;
  // The only `.` directly under the declaration is the one after its receiver.
  const receiver = node.children.find((c) => c.type === '.')?.previousSibling ?? null;
  return receiver === null ? null : typeName(receiver, text);
}

/** `val NAME = ...` / `var name: T` at top level: named by its variable (destructuring declarations stay module code). */
function propertyName(node: SyntaxNode, text: string): string | null {
  const variable = childOfType(node, 'variable_declaration');
  return variable === null ? null : textOf(childOfType(variable, 'identifier'), text);
}

/** An extension property (`val Long.cents`) is, like an extension function, a method of its receiver type. */
function propertyKind(node: SyntaxNode): ChunkKind {
  return node.children.some((c) => c.type === '.') ? 'function' : 'const';
}

const TYPE = { body: (node: SyntaxNode) => childOfType(node, BODIES), classLike: true } as const;

const rules = classifyByRules({
  imports: new Set(['import', 'import_header', 'import_list']),
  definitions: {
    class_declaration: { kind: 'class', kindOf: classKind, ...TYPE },
    object_declaration: { kind: 'class', ...TYPE },
    companion_object: { kind: 'class', name: (node, text) => fieldText(node, 'name', text) ?? 'Companion', ...TYPE },
    function_declaration: { kind: 'function', name: functionName, parent: receiverType },
    secondary_constructor: { kind: 'function', name: () => 'constructor' },
    property_declaration: { kind: 'const', name: propertyName, inClass: false, parent: receiverType, kindOf: propertyKind },
    type_alias: { kind: 'type', name: (node, text) => fieldText(node, 'type', text) },
  },
});

/**
 * Kotlin: classes, interfaces, enum classes, objects and companion objects (named `Companion` unless named) as
 * containers; functions (methods inside a type); a top-level extension function `fun String.slug()` is a method
 * whose parent is its receiver type (`String`), the way Go methods get their receiver (an extension property
 * too); secondary constructors as methods named `constructor`; top-level properties as consts, type aliases as
 * types. Properties, `init` blocks, enum entries and abstract functions stay in their type's chunks. Annotations
 * and KDoc stay with their declaration (signatures start after the annotations, and end before an `= expression`
 * body); `package` and `@file:` annotations are left in the module chunk, imports are dropped.
 */
export const kotlin: LanguageSpec = {
  grammar: () => loadGrammar('@tree-sitter-grammars/tree-sitter-kotlin'),
  leading: new Set(['line_comment', 'block_comment', 'annotation']),
  comments: new Set(['line_comment', 'block_comment']),
  references: [COMPOUND_TYPES, COMPOUND_MEMBER_CALLS],
  classify: (node, container, ctx) => {
    const unit = rules(node, container, ctx);
    if (unit === null || unit === 'import') return unit;
    // No semicolons: a signature ends at the function body (`{` or `= expr`), else at the declaration's own end
    // (not at the container's closing brace a last member is stretched to, nor in a merged neighbour).
    if (node.type === 'function_declaration') unit.bodyStart = childOfType(node, 'function_body')?.startIndex ?? node.endIndex;
    else unit.bodyStart ??= node.endIndex;
    return unit;
  },
};
