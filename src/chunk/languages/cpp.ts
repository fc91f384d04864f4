import type { Container, Unit, WalkContext } from '../symbol-units.js';
import { C_DEFINITIONS, PREPROCESSOR_BLOCKS, declared, declaredName, scopeOf, withSignatureEnd } from './c.js';
import type { DefinitionRule, LanguageSpec, SyntaxNode } from './language-spec.js';
import { loadGrammar } from './load-grammar.js';
import { classifyByRules, textOf } from './rule-classifier.js';
import { COMPOUND_MEMBER_CALLS, COMPOUND_TYPES, DECLARED_TYPES, PATH_SEGMENTS, TAGGED_TYPES } from './reference-patterns.js';

const CLASS_SPECIFIERS = new Set(['class_specifier', 'struct_specifier', 'union_specifier']);
/** Children of a template declaration that are not the templated declaration. */
const TEMPLATE_PARTS = new Set(['template_parameter_list', 'requires_clause', 'comment']);

/** `template <...> decl` -> decl; `extern "C++" decl` -> decl. */
function unwrap(node: SyntaxNode): SyntaxNode | null {
  if (node.type === 'template_declaration') return node.namedChildren.find((c) => !TEMPLATE_PARTS.has(c.type)) ?? null;
  if (node.type === 'linkage_specification') {
    const body = node.childForFieldName('body');
    return body === null || body.type === 'declaration_list' ? null : body;
  }
  return null;
}

/** A class, struct or union with a body, named by its tag (`Box<T>` specializations by `Box`); forward declarations are leftover. */
function className(node: SyntaxNode, text: string): string | null {
  if (node.childForFieldName('body') === null) return null;
  const name = node.childForFieldName('name');
  if (name === null) return null;
  const inner = name.type === 'qualified_identifier' ? (name.childForFieldName('name') ?? name) : name;
  const raw = textOf(inner.type === 'template_type' ? inner.childForFieldName('name') : inner, text);
  return raw === null ? null : raw.trim();
}

/** `class Outer::Inner { ... }` is defined in Outer. */
function classScope(node: SyntaxNode, text: string, container: Container): string | null {
  const name = node.childForFieldName('name');
  return name?.type === 'qualified_identifier' ? qualified(scopeOf(name, text), container) : null;
}

/** `struct Entry { ... };` written inside a class is a field declaration whose type is the nested class. */
function nestedClass(node: SyntaxNode): SyntaxNode | null {
  const type = node.childForFieldName('type');
  return type !== null && CLASS_SPECIFIERS.has(type.type) && node.childForFieldName('declarator') === null ? type : null;
}

/** Joins a scope written in the code (`Box::get`, `detail::hash`) to the container's own name (`ns.Box`). */
function qualified(scope: string | null, container: Container): string | null {
  if (scope === null) return null;
  return container.memberParent === null ? scope : `${container.memberParent}.${scope}`;
}

/** The class an out-of-line definition belongs to: `void Foo::bar() {}` -> `Foo` (inside namespace ns: `ns.Foo`). */
function definedIn(node: SyntaxNode, text: string, container: Container): string | null {
  const found = declared(node);
  return found === null ? null : qualified(scopeOf(found.name, text), container);
}

/** A namespace's name, `a::b` written as `a.b`; an anonymous namespace has none (it is transparent). */
function namespaceName(node: SyntaxNode, text: string): string | null {
  const name = textOf(node.childForFieldName('name'), text);
  return name === null ? null : name.replace(/\s*::\s*/g, '.');
}

/** A function definition without a body (`Foo() = default;`, `= delete`) stays in its class's chunk. */
function definitionName(node: SyntaxNode, text: string): string | null {
  return node.childForFieldName('body') === null ? null : declaredName(node, text);
}

const DEFINITIONS: Readonly<Record<string, DefinitionRule>> = {
  ...C_DEFINITIONS,
  function_definition: { kind: 'function', name: definitionName, parent: definedIn },
  // Inside a class, member declarations (constructors, `virtual f() = 0;`) stay in the class chunk.
  declaration: { ...C_DEFINITIONS.declaration!, parent: definedIn, inClass: false },
  class_specifier: { kind: 'class', name: className, parent: classScope, body: (node) => node.childForFieldName('body'), classLike: true },
  struct_specifier: { kind: 'class', name: className, parent: classScope, body: (node) => node.childForFieldName('body'), classLike: true },
  union_specifier: { kind: 'class', name: className, parent: classScope, body: (node) => node.childForFieldName('body'), classLike: true },
  field_declaration: {
    kind: 'class',
    name: (node, text) => {
      const type = nestedClass(node);
      return type === null ? null : className(type, text);
    },
    body: (node) => nestedClass(node)?.childForFieldName('body') ?? null,
    classLike: true,
  },
  namespace_definition: { kind: 'namespace', name: namespaceName, body: (node) => node.childForFieldName('body') },
  alias_declaration: { kind: 'type', inClass: false },
  type_definition: { ...C_DEFINITIONS.type_definition!, inClass: false },
};

/** Namespace names declared in a file (cached for the last file: one scan per file, not per definition). */
let namespacesOf: { text: string; names: Set<string> } | null = null;

function namespaces(text: string): Set<string> {
  if (namespacesOf?.text !== text) {
    const names = new Set<string>(['std']);
    for (const m of text.matchAll(/\bnamespace\s+([A-Za-z_][\w:\s]*?)\s*[{=]/g)) for (const part of (m[1] ?? '').split('::')) names.add(part.trim());
    namespacesOf = { text, names };
  }
  return namespacesOf.names;
}

/** `#if` groups, `extern "C" {}` and anonymous namespaces are walked through. */
function transparent(node: SyntaxNode): boolean {
  if (PREPROCESSOR_BLOCKS.has(node.type)) return true;
  if (node.type === 'linkage_specification') return node.childForFieldName('body')?.type === 'declaration_list';
  if (node.type === 'namespace_definition') return node.childForFieldName('name') === null;
  if (node.type !== 'declaration_list') return false;
  const parent = node.parent;
  return parent !== null && (parent.type === 'linkage_specification' || (parent.type === 'namespace_definition' && parent.childForFieldName('name') === null));
}

const byRules = classifyByRules({
  imports: new Set(['preproc_include', 'using_declaration']),
  unwrap,
  definitions: DEFINITIONS,
});

/**
 * Classifies like C plus C++: `using` declarations are imports outside classes (inside one, `using Base::Base;`
 * stays in the class chunk); a definition qualified by a namespace (`int detail::hash() {}`) is a function
 * of that namespace, not a method.
 */
function classify(node: SyntaxNode, container: Container, ctx: WalkContext): Unit | 'import' | null {
  if (node.type === 'using_declaration' && container.isClass) return null;
  const unit = withSignatureEnd(byRules(node, container, ctx), node);
  if (unit === null || unit === 'import' || unit.kind !== 'method' || container.isClass || unit.parent === null) return unit;
  const scope = unit.parent.slice(unit.parent.lastIndexOf('.') + 1);
  if (namespaces(ctx.source.text).has(scope)) unit.kind = 'function';
  return unit;
}

/**
 * C++: everything C has (functions, prototypes, structs, enums, typedefs, macros; `#ifdef` groups walked
 * through) plus classes, structs and unions with bodies as class containers (inline member functions are
 * methods; fields, member declarations and access labels stay in the class chunk; nested classes nest),
 * out-of-line definitions `void Foo::bar() {}` as methods of `Foo`, named namespaces as namespace containers
 * (anonymous ones walked through), templates unwrapped, `using X = T` as a type and `using` declarations
 * dropped like includes.
 */
export const cpp: LanguageSpec = {
  grammar: () => loadGrammar('tree-sitter-cpp'),
  leading: new Set(['comment']),
  comments: new Set(['comment']),
  references: [COMPOUND_TYPES, COMPOUND_MEMBER_CALLS, PATH_SEGMENTS, TAGGED_TYPES, DECLARED_TYPES],
  transparent,
  classify,
};
