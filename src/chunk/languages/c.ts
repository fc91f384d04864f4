import type { ChunkKind } from '../../types.js';
import type { Unit } from '../symbol-units.js';
import type { DefinitionRule, LanguageSpec, SyntaxNode } from './language-spec.js';
import { loadGrammar } from './load-grammar.js';
import { classifyByRules, textOf } from './rule-classifier.js';
import { COMPOUND_MEMBER_CALLS, TAGGED_TYPES } from './reference-patterns.js';

/** Nodes that name what a declarator declares (C and C++). */
const DECLARED_NAMES = new Set([
  'identifier', 'type_identifier', 'field_identifier', 'qualified_identifier', 'destructor_name', 'operator_name',
  'template_function', 'operator_cast', 'primitive_type',
]);
/** Declarator chains are short; this bounds the walk. */
const MAX_DECLARATOR_DEPTH = 12;

/** What a declaration's declarator chain names: the name node, and whether it is a function (its nearest wrapper is a function declarator). */
export interface Declared {
  readonly name: SyntaxNode;
  readonly isFunction: boolean;
}

/**
 * Follows a declarator chain (`*`, `&`, arrays, parentheses, `= init`, function declarators) to the declared
 * name: `int *(*make)(void)` names `make`, a variable; `ring_t *ring_new(size_t)` names `ring_new`, a function.
 */
export function declared(node: SyntaxNode): Declared | null {
  let current = node.childForFieldName('declarator');
  let wrapper = '';
  for (let depth = 0; current !== null && depth < MAX_DECLARATOR_DEPTH; depth += 1) {
    if (DECLARED_NAMES.has(current.type)) return { name: current, isFunction: wrapper === 'function_declarator' };
    wrapper = current.type;
    current = current.childForFieldName('declarator')
      ?? current.namedChildren.find((c) => c.type.endsWith('declarator') || DECLARED_NAMES.has(c.type))
      ?? null;
  }
  return null;
}

/** `Box<T>` -> `Box`: template arguments dropped from a scope or name. */
function withoutTemplateArgs(name: string): string {
  const open = name.indexOf('<');
  return (open === -1 ? name : name.slice(0, open)).trim();
}

/** The last component of a (possibly qualified) name node, template arguments dropped: `Box<T>::~Box` -> `~Box`. */
export function simpleName(name: SyntaxNode, text: string): string | null {
  let node = name;
  for (let depth = 0; node.type === 'qualified_identifier' && depth < MAX_DECLARATOR_DEPTH; depth += 1) {
    const inner = node.childForFieldName('name');
    if (inner === null) break;
    node = inner;
  }
  if (node.type === 'template_function') return textOf(node.childForFieldName('name'), text);
  const raw = textOf(node, text);
  if (raw === null) return null;
  const flat = raw.replace(/\s+/g, ' ');
  return node.type === 'operator_name' || node.type === 'operator_cast' ? flat.replace(/\s*\(.*$/, '') : withoutTemplateArgs(flat);
}

/** The scopes of a qualified name joined with dots, template arguments dropped (`a::Box<T>::get` -> `a.Box`), or null. */
export function scopeOf(name: SyntaxNode, text: string): string | null {
  const scopes: string[] = [];
  let node = name;
  for (let depth = 0; node.type === 'qualified_identifier' && depth < MAX_DECLARATOR_DEPTH; depth += 1) {
    const scope = node.childForFieldName('scope');
    const scopeText = textOf(scope, text);
    if (scopeText !== null) scopes.push(withoutTemplateArgs(scopeText));
    const inner = node.childForFieldName('name');
    if (inner === null) break;
    node = inner;
  }
  return scopes.length === 0 ? null : scopes.join('.');
}

/** Name of a declaration or definition from its declarator chain, or null. */
export function declaredName(node: SyntaxNode, text: string): string | null {
  const found = declared(node);
  return found === null ? null : simpleName(found.name, text);
}

/** A `struct`, `union` or `enum` specifier with a body: named by its tag. Forward declarations (`struct s;`) are leftover. */
function taggedName(node: SyntaxNode, text: string): string | null {
  return node.childForFieldName('body') === null ? null : textOf(node.childForFieldName('name'), text);
}

/** `typedef struct {...} ring_t;` is the struct ring_t (a class); a typedef'd enum an enum; anything else a type. */
function typedefKind(node: SyntaxNode): ChunkKind {
  const type = node.childForFieldName('type');
  if (type === null || type.childForFieldName('body') === null) return 'type';
  if (type.type === 'enum_specifier') return 'enum';
  return type.type === 'struct_specifier' || type.type === 'union_specifier' || type.type === 'class_specifier' ? 'class' : 'type';
}

/** A declaration is a prototype (a signature grouped with a following definition) or a global (a constant-like symbol). */
function declarationKind(node: SyntaxNode): ChunkKind {
  return declared(node)?.isFunction === true ? 'function' : 'const';
}

/** `#define NAME value` is a constant; a bare `#define NAME` (an include guard, a feature flag) is leftover. */
function macroName(node: SyntaxNode, text: string): string | null {
  return node.childForFieldName('value') === null ? null : textOf(node.childForFieldName('name'), text);
}

/** Preprocessor conditionals: their branches are walked as top-level code. */
export const PREPROCESSOR_BLOCKS = new Set(['preproc_if', 'preproc_ifdef', 'preproc_else', 'preproc_elif', 'preproc_elifdef']);

/** `#ifdef` groups and `extern "C" { ... }` are transparent: what they hold is chunked as if written outside them. */
function transparent(node: SyntaxNode): boolean {
  if (PREPROCESSOR_BLOCKS.has(node.type)) return true;
  if (node.type === 'linkage_specification') return node.childForFieldName('body')?.type === 'declaration_list';
  return node.type === 'declaration_list' && node.parent?.type === 'linkage_specification';
}

/** `extern "C" int f(void);` declares what it wraps. */
function unwrapLinkage(node: SyntaxNode): SyntaxNode | null {
  if (node.type !== 'linkage_specification') return null;
  const body = node.childForFieldName('body');
  return body === null || body.type === 'declaration_list' ? null : body;
}

/** Definitions shared by C and C++ (C++ adds classes, namespaces and templates). */
export const C_DEFINITIONS: Readonly<Record<string, DefinitionRule>> = {
  function_definition: { kind: 'function', name: declaredName },
  declaration: { kind: 'const', name: declaredName, kindOf: declarationKind, isSignature: (node) => declared(node)?.isFunction === true },
  struct_specifier: { kind: 'class', name: taggedName },
  union_specifier: { kind: 'class', name: taggedName },
  enum_specifier: { kind: 'enum', name: taggedName },
  type_definition: { kind: 'type', name: declaredName, kindOf: typedefKind },
  preproc_def: { kind: 'const', name: macroName },
  preproc_function_def: { kind: 'function' },
};

/** Lines that mark a header as C++: a class, namespace, template, access label, `std::`, `using namespace`, a C++ standard header. */
const CPP_MARKERS = new RegExp([
  /^[ \t]*template\s*</.source,
  /^[ \t]*(?:inline\s+)?namespace(?:\s+[A-Za-z_][\w:]*)?\s*\{/.source,
  /^[ \t]*using\s+namespace\s/.source,
  /^[ \t]*(?:public|private|protected)\s*:/.source,
  /^[ \t]*class\s+[A-Za-z_]\w*(?:\s+final)?\s*(?:\{|:\s*(?:public|private|protected|virtual)?\s*[A-Za-z_])/.source,
  /^[ \t]*struct\s+[A-Za-z_]\w*(?:\s+final)?\s*:\s*(?:public|private|protected|virtual)?\s*[A-Za-z_]/.source,
  /^[ \t]*#\s*include\s*<(?:string|vector|memory|map|unordered_map|iostream|functional|optional|cstdint|cstddef|cstdlib|algorithm|utility|array|set|mutex|thread)>/.source,
  /\bstd::[a-z_]/.source,
].join('|'), 'm');
/** Head of a header scanned for C++ markers. */
const SNIFF_CHARS = 64 * 1024;

/**
 * True when C source (a `.h` header) is evidently C++: many projects name C++ headers `.h`, and the C grammar
 * turns their classes into parse errors. Markers start a line (so prose in comments rarely counts): a class
 * opened with `{` or a base list, a struct with a base list, a namespace block, a template, an access label,
 * `using namespace`, a C++ standard header; or `std::` anywhere. C that only guards itself with
 * `extern "C"` or names a member `class` stays C.
 */
export function looksLikeCpp(content: string): boolean {
  return CPP_MARKERS.test(content.length > SNIFF_CHARS ? content.slice(0, SNIFF_CHARS) : content);
}

/** A definition's signature ends with its node: a macro's line, not the `#endif` after it that joins its chunk. */
export function withSignatureEnd(unit: Unit | 'import' | null, node: SyntaxNode): Unit | 'import' | null {
  if (unit !== null && unit !== 'import' && unit.bodyStart === undefined) unit.bodyStart = node.endIndex;
  return unit;
}

const byRules = classifyByRules({
  imports: new Set(['preproc_include']),
  unwrap: unwrapLinkage,
  definitions: C_DEFINITIONS,
});

/**
 * C: functions (named through their declarator chain: `*`, arrays, parentheses), prototypes as function
 * signatures (joined with a definition that follows them), globals as constants, structs and unions as
 * classes, enums, typedefs (a typedef'd struct is named by its typedef name), `#define` constants and
 * function-like macros. `#include` is dropped; `#ifdef` groups and `extern "C" {}` are walked through, so
 * a guarded header still yields one chunk per declaration. A `.h` file that is evidently C++ is chunked as C++.
 */
export const c: LanguageSpec = {
  grammar: () => loadGrammar('tree-sitter-c'),
  leading: new Set(['comment']),
  comments: new Set(['comment']),
  references: [COMPOUND_MEMBER_CALLS, TAGGED_TYPES],
  transparent,
  dialect: (content) => (looksLikeCpp(content) ? 'cpp' : null),
  classify: (node, container, ctx) => withSignatureEnd(byRules(node, container, ctx), node),
};
