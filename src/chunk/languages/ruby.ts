import type { Container, Unit, WalkContext } from '../symbol-units.js';
import type { LanguageSpec, SyntaxNode } from './language-spec.js';
import { loadGrammar } from './load-grammar.js';
import { classifyByRules, textOf } from './rule-classifier.js';
import { COMPOUND_MEMBER_CALLS, CONSTANT_PATHS } from './reference-patterns.js';

/** Calls that load code: dropped like imports. */
const REQUIRES = new Set(['require', 'require_relative']);

/** `Outer::Inner` -> `Inner` (the last segment of a class or module name). */
function lastSegment(node: SyntaxNode, text: string): string | null {
  const name = node.childForFieldName('name');
  if (name === null) return null;
  if (name.type === 'scope_resolution') return textOf(name.childForFieldName('name'), text);
  return textOf(name, text);
}

/** `class Outer::Inner` is defined in Outer (inside module M: `M.Outer`). */
function scopeOf(node: SyntaxNode, text: string, container: Container): string | null {
  const name = node.childForFieldName('name');
  const scope = name?.type === 'scope_resolution' ? textOf(name.childForFieldName('scope'), text) : null;
  if (scope === null || scope === '') return null;
  const dotted = scope.replace(/^::/, '').replace(/::/g, '.');
  return container.memberParent === null ? dotted : `${container.memberParent}.${dotted}`;
}

/** `def Config.load` belongs to Config; `def self.load` to the enclosing class (null: the container decides). */
function singletonOwner(node: SyntaxNode, text: string): string | null {
  const object = node.childForFieldName('object');
  return object === null || object.type === 'self' ? null : textOf(object, text);
}

/** `NAME = value` (a constant) at file or module level. */
function constantName(node: SyntaxNode, text: string): string | null {
  const left = node.childForFieldName('left');
  return left?.type === 'constant' ? textOf(left, text) : null;
}

/** `require 'json'` and `require_relative 'money'` (no receiver). */
function isRequire(node: SyntaxNode, text: string): boolean {
  if (node.type !== 'call' || node.childForFieldName('receiver') !== null) return false;
  const method = textOf(node.childForFieldName('method'), text);
  return method !== null && REQUIRES.has(method);
}

/** `class << self ... end`: its methods are the class's own (walked as if written in the class). */
function transparent(node: SyntaxNode): boolean {
  return node.type === 'singleton_class' || (node.type === 'body_statement' && node.parent?.type === 'singleton_class');
}

const byRules = classifyByRules({
  imports: new Set(),
  definitions: {
    module: { kind: 'namespace', name: lastSegment, parent: scopeOf, body: (node) => node.childForFieldName('body'), classLike: true },
    class: { kind: 'class', name: lastSegment, parent: scopeOf, body: (node) => node.childForFieldName('body'), classLike: true },
    method: { kind: 'function' },
    singleton_method: { kind: 'function', parent: singletonOwner },
    assignment: { kind: 'const', name: constantName, inClass: false },
  },
});

/**
 * Rules plus requires as imports. An endless method (`def f(x) = x * 2`) has its whole line as signature; a
 * class without body (`class E < StandardError; end`) ends its signature before `;`/`end` (its `<` would
 * otherwise read as an open bracket).
 */
function classify(node: SyntaxNode, container: Container, ctx: WalkContext): Unit | 'import' | null {
  if (isRequire(node, ctx.source.text)) return 'import';
  const unit = byRules(node, container, ctx);
  if (unit === null || unit === 'import') return unit;
  if (node.type === 'method' && node.children.some((c) => c.type === '=')) unit.bodyStart = undefined;
  if (unit.bodyStart === undefined && (node.type === 'class' || node.type === 'module')) {
    unit.bodyStart = node.children.find((c) => c.type === ';' || c.type === 'end')?.startIndex;
  }
  return unit;
}

/**
 * Ruby: modules as namespaces and classes as classes (both containers whose `def`s are methods; constants and
 * `attr_*`, `include` and visibility calls stay in their chunk), `def self.x` and `class << self` methods as
 * methods of the class, top-level `def`s as functions, top-level constants, `# ...` comments
 * glued; `require`/`require_relative` are dropped like imports.
 */
export const ruby: LanguageSpec = {
  grammar: () => loadGrammar('tree-sitter-ruby'),
  leading: new Set(['comment']),
  comments: new Set(['comment']),
  references: [CONSTANT_PATHS, COMPOUND_MEMBER_CALLS],
  transparent,
  classify,
};
