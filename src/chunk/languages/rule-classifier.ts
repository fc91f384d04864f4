import type { ChunkKind } from '../../types.js';
import type { Container, Unit, WalkContext } from '../symbol-units.js';
import type { DefinitionRule, LanguageSpec, SyntaxNode } from './language-spec.js';

/** The declarative part of a language spec: which nodes are imports, wrappers and definitions. */
export interface RuleSet {
  readonly definitions: Readonly<Record<string, DefinitionRule>>;
  /** Statements dropped from chunks (imports, `use`, `#include`); their lines count as covered. */
  readonly imports: ReadonlySet<string>;
  /** A wrapper's wrapped declaration (Python `decorated_definition`, C++ `template_declaration`), or null. */
  readonly unwrap?: (node: SyntaxNode) => SyntaxNode | null;
}

/** Longest symbol name kept, in chars. */
const MAX_NAME_CHARS = 200;

/** Text of a node, or null. */
export function textOf(node: SyntaxNode | null | undefined, text: string): string | null {
  if (node === null || node === undefined) return null;
  return text.slice(node.startIndex, node.endIndex).slice(0, MAX_NAME_CHARS);
}

/** Text of a node's field, or null when the node has no such field. */
export function fieldText(node: SyntaxNode, field: string, text: string): string | null {
  return textOf(node.childForFieldName(field), text);
}

/** First named descendant (depth first, `node` included) of one of `types`, or null. */
export function findDescendant(node: SyntaxNode, types: ReadonlySet<string>, maxDepth = 6): SyntaxNode | null {
  if (types.has(node.type)) return node;
  if (maxDepth === 0) return null;
  for (const child of node.namedChildren) {
    const found = findDescendant(child, types, maxDepth - 1);
    if (found !== null) return found;
  }
  return null;
}

/** First named child of one of `types`, or null. */
export function childOfType(node: SyntaxNode, types: ReadonlySet<string> | string): SyntaxNode | null {
  for (const child of node.namedChildren) if (typeof types === 'string' ? child.type === types : types.has(child.type)) return child;
  return null;
}

/** Unwraps a wrapper chain (bounded: wrappers never nest deeply). */
function unwrapAll(node: SyntaxNode, rules: RuleSet): SyntaxNode {
  let decl = node;
  for (let depth = 0; depth < 4 && rules.unwrap !== undefined; depth += 1) {
    const inner = rules.unwrap(decl);
    if (inner === null) break;
    decl = inner;
  }
  return decl;
}

/**
 * A `classify` built from rules: an import, a definition (a unit; a container when the rule has a body), or
 * null (leftover code, kept in the container's own chunks). A 'function' inside a class-like container is a 'method'.
 */
export function classifyByRules(rules: RuleSet): LanguageSpec['classify'] {
  return (node: SyntaxNode, container: Container, ctx: WalkContext): Unit | 'import' | null => {
    if (rules.imports.has(node.type)) return 'import';
    const decl = unwrapAll(node, rules);
    const rule = rules.definitions[decl.type];
    if (rule === undefined || (container.isClass && rule.inClass === false)) return null;
    const text = ctx.source.text;
    const name = rule.name === undefined ? fieldText(decl, 'name', text) : rule.name(decl, text);
    if (name === null || name.trim() === '') return null;
    const ownParent = rule.parent?.(decl, text, container) ?? null;
    const parent = ownParent ?? container.memberParent;
    let kind: ChunkKind = rule.kindOf?.(decl) ?? rule.kind;
    if (kind === 'function' && (container.isClass || ownParent !== null)) kind = 'method';
    const body = rule.body?.(decl) ?? decl.childForFieldName('body');
    const bodyStart = body === null ? undefined : body.startIndex;
    let nested: Container | null = null;
    if (rule.body !== undefined) {
      nested = {
        kind, name, parent, start: node.startIndex, end: node.endIndex, declStart: decl.startIndex, bodyStart, doc: '',
        body, memberParent: parent === null ? name : `${parent}.${name}`, isClass: rule.classLike === true,
      };
    }
    return {
      type: 'unit', kind, symbol: name, parent, start: node.startIndex, end: node.endIndex, declStart: decl.startIndex, bodyStart,
      doc: '', nodes: [node], isSignature: rule.isSignature?.(decl) ?? false, nested, merged: [],
    };
  };
}
