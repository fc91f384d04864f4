import type { LanguageSpec, SyntaxNode } from './language-spec.js';
import { loadGrammar } from './load-grammar.js';
import { classifyByRules, childOfType, fieldText } from './rule-classifier.js';
import { COMPOUND_MEMBER_CALLS, COMPOUND_TYPES, DECLARED_TYPES } from './reference-patterns.js';

/** A method or constructor with a body; an abstract or interface method (no body) stays in its type's chunk. */
function bodiedName(node: SyntaxNode, text: string): string | null {
  return node.childForFieldName('body') === null ? null : fieldText(node, 'name', text);
}

/** Members of a type: the class body; for an enum, the declarations after its constants (the constants stay in the enum's header chunk). */
function typeBody(node: SyntaxNode): SyntaxNode | null {
  const body = node.childForFieldName('body');
  if (body === null || body.type !== 'enum_body') return body;
  return childOfType(body, 'enum_body_declarations') ?? body;
}

const TYPE = { body: typeBody, classLike: true } as const;

/**
 * Java: classes, interfaces, enums, records and annotation types as containers (nested types are nested
 * containers whose parent is the outer type); methods and constructors as methods of their type. Fields,
 * initializer blocks, enum constants and abstract methods stay in the type's own chunks; annotations and
 * Javadoc stay with their declaration (signatures start after the annotations); `package` is left in the
 * module chunk, imports are dropped.
 */
export const java: LanguageSpec = {
  grammar: () => loadGrammar('tree-sitter-java'),
  leading: new Set(['line_comment', 'block_comment', 'marker_annotation', 'annotation']),
  comments: new Set(['line_comment', 'block_comment']),
  references: [COMPOUND_TYPES, COMPOUND_MEMBER_CALLS, DECLARED_TYPES],
  classify: classifyByRules({
    imports: new Set(['import_declaration']),
    definitions: {
      class_declaration: { kind: 'class', ...TYPE },
      record_declaration: { kind: 'class', ...TYPE },
      interface_declaration: { kind: 'interface', ...TYPE },
      annotation_type_declaration: { kind: 'interface', ...TYPE },
      enum_declaration: { kind: 'enum', ...TYPE },
      method_declaration: { kind: 'function', name: bodiedName },
      constructor_declaration: { kind: 'function' },
      compact_constructor_declaration: { kind: 'function' },
    },
  }),
};
