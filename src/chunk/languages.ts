import JavaScript from 'tree-sitter-javascript';
import TypeScript from 'tree-sitter-typescript';
import type { Language } from '../types.js';

/** What a top-level (or namespace-level) statement node is, for the chunker. */
export type StatementRole =
  | 'function'
  | 'function-signature'
  | 'class'
  | 'interface'
  | 'type'
  | 'enum'
  | 'namespace'
  | 'variable'
  | 'import'
  | 'export'
  | 'ambient'
  | 'expression';

/** What a class member node is: its own 'method' chunk, an overload signature, or part of the class chunk. */
export type MemberRole = 'method' | 'method-signature' | 'field';

/** Per-language facts: the tree-sitter grammar and which node types produce which chunks. */
export interface LanguageSpec {
  /** Grammar object handed to `Parser.setLanguage`. */
  readonly grammar: unknown;
  readonly statements: Readonly<Record<string, StatementRole>>;
  readonly members: Readonly<Record<string, MemberRole>>;
  /** Node types of a value that makes a variable a function (`const f = () => {}`). */
  readonly functionValues: ReadonlySet<string>;
  /** Node types of a value that makes a variable a class (`const C = class {}`). */
  readonly classValues: ReadonlySet<string>;
  /** Node types glued to the following declaration (comments, decorators). */
  readonly leading: ReadonlySet<string>;
}

/** Statement node types shared by the TypeScript and JavaScript grammars (TS-only ones never occur in JS). */
const STATEMENTS: Readonly<Record<string, StatementRole>> = {
  function_declaration: 'function',
  generator_function_declaration: 'function',
  function_signature: 'function-signature',
  class_declaration: 'class',
  abstract_class_declaration: 'class',
  class: 'class',
  interface_declaration: 'interface',
  type_alias_declaration: 'type',
  enum_declaration: 'enum',
  internal_module: 'namespace',
  module: 'namespace',
  lexical_declaration: 'variable',
  variable_declaration: 'variable',
  import_statement: 'import',
  import_alias: 'import',
  export_statement: 'export',
  ambient_declaration: 'ambient',
  expression_statement: 'expression',
};

const MEMBERS: Readonly<Record<string, MemberRole>> = {
  method_definition: 'method',
  abstract_method_signature: 'method',
  method_signature: 'method-signature',
  public_field_definition: 'field',
  field_definition: 'field',
};

const FUNCTION_VALUES: ReadonlySet<string> = new Set([
  'arrow_function', 'function_expression', 'function', 'generator_function',
]);
const CLASS_VALUES: ReadonlySet<string> = new Set(['class']);
const LEADING: ReadonlySet<string> = new Set(['comment', 'decorator']);

function spec(grammar: unknown): LanguageSpec {
  return { grammar, statements: STATEMENTS, members: MEMBERS, functionValues: FUNCTION_VALUES, classValues: CLASS_VALUES, leading: LEADING };
}

/** The languages parsed with tree-sitter, and their specs. */
export const TREE_SITTER_LANGUAGES: Readonly<Partial<Record<Language, LanguageSpec>>> = {
  typescript: spec(TypeScript.typescript),
  tsx: spec(TypeScript.tsx),
  javascript: spec(JavaScript),
  jsx: spec(JavaScript),
};
