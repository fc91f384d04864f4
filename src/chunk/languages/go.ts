import type { ChunkKind } from '../../types.js';
import type { LanguageSpec, SyntaxNode } from './language-spec.js';
import { loadGrammar } from './load-grammar.js';
import { classifyByRules, fieldText, findDescendant } from './rule-classifier.js';

const RECEIVER_TYPE = new Set(['type_identifier']);

/** The type a method's receiver names: `func (s *Server) Serve()` -> `Server` (generic arguments dropped). */
function receiverType(node: SyntaxNode, text: string): string | null {
  const receiver = node.childForFieldName('receiver');
  if (receiver === null) return null;
  const type = findDescendant(receiver, RECEIVER_TYPE);
  return type === null ? null : text.slice(type.startIndex, type.endIndex);
}

/** First spec's name of a `type`, `const` or `var` declaration (a group is named by its first member). */
function firstSpecName(node: SyntaxNode, text: string): string | null {
  const spec = node.namedChildren.find((c) => c.type.endsWith('_spec') || c.type.endsWith('_spec_list'));
  if (spec === undefined) return null;
  const inner = spec.type.endsWith('_list') ? spec.namedChildren.find((c) => c.type.endsWith('_spec')) : spec;
  return inner === undefined ? null : fieldText(inner, 'name', text);
}

/** A struct is the nearest thing to a class, an interface an interface; other named types are types. */
function typeKind(node: SyntaxNode): ChunkKind {
  const spec = node.namedChildren.find((c) => c.type === 'type_spec' || c.type === 'type_alias');
  const type = spec?.childForFieldName('type')?.type;
  if (type === 'struct_type') return 'class';
  if (type === 'interface_type') return 'interface';
  return 'type';
}

/**
 * Go: functions, methods with their receiver type as parent (wherever in the package they are written),
 * types (structs as classes, interfaces), const and var groups; doc comments kept with their declaration,
 * imports dropped, the package clause left in the file's module chunk.
 */
export const go: LanguageSpec = {
  grammar: () => loadGrammar('tree-sitter-go'),
  leading: new Set(['comment']),
  comments: new Set(['comment']),
  references: [
    // pkg.Func(, pkg.Type{, value.Method( — exported names are capitalised
    /\b[A-Za-z_]\w*\.([A-Z]\w+)/g,
    // types in parameters, fields, conversions and literals: *Server, []User, map[string]Store, Server{
    /(?:\*|\]|\s)([A-Z]\w+)\b/g,
  ],
  classify: classifyByRules({
    imports: new Set(['import_declaration']),
    definitions: {
      function_declaration: { kind: 'function' },
      method_declaration: { kind: 'method', parent: receiverType },
      type_declaration: { kind: 'type', name: firstSpecName, kindOf: typeKind },
      const_declaration: { kind: 'const', name: firstSpecName },
      var_declaration: { kind: 'const', name: firstSpecName },
    },
  }),
};
