import type { LanguageSpec, SyntaxNode } from './language-spec.js';
import { loadGrammar } from './load-grammar.js';
import { childOfType, classifyByRules, fieldText, textOf } from './rule-classifier.js';
import { COMPOUND_MEMBER_CALLS, COMPOUND_TYPES } from './reference-patterns.js';

/** The name a type is known by: `List[T]` -> `List`, `a.b.C` -> `C`; other shapes as written. */
function typeName(node: SyntaxNode | null, text: string): string | null {
  if (node === null) return null;
  if (node.type === 'generic_type') return typeName(node.childForFieldName('type'), text);
  if (node.type === 'stable_type_identifier') return typeName(node.lastNamedChild, text);
  return textOf(node, text);
}

/** `extension (s: String)` is named by the type it extends. */
function extendedType(node: SyntaxNode, text: string): string | null {
  const parameter = childOfType(node.childForFieldName('parameters') ?? node, 'parameter');
  return parameter === null ? null : typeName(parameter.childForFieldName('type'), text);
}

/** `val name = ...` is named by its pattern when that is a plain identifier (destructuring stays module code). */
function patternName(node: SyntaxNode, text: string): string | null {
  const pattern = node.childForFieldName('pattern');
  return pattern?.type === 'identifier' ? textOf(pattern, text) : null;
}

/** `package a.b { ... }` is a namespace; a plain `package a.b` clause stays in the module chunk. */
function packageName(node: SyntaxNode, text: string): string | null {
  return node.childForFieldName('body') === null ? null : fieldText(node, 'name', text);
}

const TEMPLATE = { body: (node: SyntaxNode) => node.childForFieldName('body'), classLike: true } as const;

const rules = classifyByRules({
  imports: new Set(['import_declaration']),
  definitions: {
    class_definition: { kind: 'class', ...TEMPLATE },
    object_definition: { kind: 'class', ...TEMPLATE },
    trait_definition: { kind: 'interface', ...TEMPLATE },
    enum_definition: { kind: 'enum', ...TEMPLATE },
    package_object: { kind: 'namespace', body: (node) => node.childForFieldName('body') },
    package_clause: { kind: 'namespace', name: packageName, body: (node) => node.childForFieldName('body') },
    // Its members are walked in place: `extension (s: String) def slug` and the `{ ... }` or indented forms.
    extension_definition: { kind: 'class', name: extendedType, body: (node) => node, classLike: true },
    function_definition: { kind: 'function' },
    val_definition: { kind: 'const', name: patternName, inClass: false },
    var_definition: { kind: 'const', name: patternName, inClass: false },
    type_definition: { kind: 'type', inClass: false },
  },
});

/** Where a signature ends: before `= body` of a def, at the body of a template, else at the declaration's own end. */
function signatureEnd(node: SyntaxNode): number {
  if (node.type === 'function_definition') {
    const equals = node.children.find((c) => c.type === '=');
    return equals?.startIndex ?? node.childForFieldName('body')?.startIndex ?? node.endIndex;
  }
  if (node.type === 'extension_definition') return node.namedChildren.find((c) => c.type === 'function_definition' || c.type === 'template_body')?.startIndex ?? node.endIndex;
  if (node.type === 'val_definition' || node.type === 'var_definition') return node.endIndex;
  return node.childForFieldName('body')?.startIndex ?? node.endIndex;
}

const COMMENTS = new Set(['comment', 'block_comment']);

/** End of the last token of `node` outside comments, or null when it holds only comments. */
function codeEnd(node: SyntaxNode): number | null {
  for (let i = node.childCount - 1; i >= 0; i -= 1) {
    const child = node.child(i) as SyntaxNode;
    if (COMMENTS.has(child.type)) continue;
    if (child.childCount === 0) return child.endIndex;
    const end = codeEnd(child);
    if (end !== null) return end;
  }
  return null;
}

/** Comments at the very end of `node` (after its last token), in source order. */
function trailingComments(node: SyntaxNode, after: number, out: SyntaxNode[] = []): SyntaxNode[] {
  for (const child of node.children) {
    if (child.endIndex <= after) continue;
    if (COMMENTS.has(child.type)) out.push(child);
    else trailingComments(child, after, out);
  }
  return out;
}

/**
 * The grammar puts comments that follow a def's indented body (`def a =\n  1\n\n  // doc of b\n  def b`) inside
 * that body. Those with no blank line before the next sibling document it: they are handed over to it.
 */
function handedOver(def: SyntaxNode | null): SyntaxNode[] {
  const next = def?.nextSibling ?? null;
  const end = def?.type === 'function_definition' && next !== null ? codeEnd(def) : null;
  if (def === null || next === null || end === null) return [];
  const comments = trailingComments(def, end);
  let first = comments.length;
  let below = next.startPosition.row;
  while (first > 0 && (comments[first - 1] as SyntaxNode).endPosition.row + 1 >= below) {
    first -= 1;
    below = (comments[first] as SyntaxNode).startPosition.row;
  }
  return comments.slice(first);
}

/** Where a def's own text ends when it hands comments over: after its code and the comments it keeps. */
function ownEnd(def: SyntaxNode, handed: number): number {
  const end = codeEnd(def) ?? def.endIndex;
  return Math.max(end, ...trailingComments(def, end).filter((c) => c.startIndex < handed).map((c) => c.endIndex));
}

/**
 * Scala (2 and 3): classes and case classes, objects and case objects (kind class), traits (interface) and enums as
 * containers, their defs as methods; package objects and `package x { ... }` blocks as namespaces; a Scala 3
 * `extension (s: String)` block as a class-like container named by the extended type, so its defs are methods of
 * `String` (as Kotlin extension functions are). Top-level defs are functions, top-level (and package-object)
 * vals/vars consts, type definitions types. Vals, vars, type members, abstract defs and statements stay in their
 * template's chunks; `given` instances stay as module/template code. Annotations and Scaladoc stay with their
 * definition; the `package` clause is left in the module chunk, imports are dropped.
 */
export const scala: LanguageSpec = {
  grammar: () => loadGrammar('tree-sitter-scala'),
  leading: new Set(['comment', 'block_comment', 'annotation']),
  comments: new Set(['comment', 'block_comment']),
  references: [COMPOUND_TYPES, COMPOUND_MEMBER_CALLS],
  classify: (node, container, ctx) => {
    const unit = rules(node, container, ctx);
    if (unit === null || unit === 'import') return unit;
    unit.bodyStart = signatureEnd(node);
    const taken = handedOver(node.previousSibling);
    if (taken.length > 0) unit.start = (taken[0] as SyntaxNode).startIndex;
    const given = handedOver(node);
    const next = node.nextSibling;
    if (given.length > 0 && next !== null) {
      const nextUnit = rules(next, container, ctx);
      if (nextUnit !== null && nextUnit !== 'import') unit.end = ownEnd(node, (given[0] as SyntaxNode).startIndex);
    }
    return unit;
  },
  innerDoc: (node, text) => handedOver(node.previousSibling).map((c) => text.slice(c.startIndex, c.endIndex)).join('\n'),
};
