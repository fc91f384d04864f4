import type Parser from 'tree-sitter';
import type { ChunkKind } from '../../types.js';
import type { Container, Unit, WalkContext } from '../symbol-units.js';

type Node = Parser.SyntaxNode;

/**
 * TypeScript, TSX, JavaScript and JSX: how statements and class members become symbol units.
 */

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

/** TypeScript/JavaScript node tables: which node types produce which chunks. */
export interface ScriptSyntax {
  readonly statements: Readonly<Record<string, StatementRole>>;
  readonly members: Readonly<Record<string, MemberRole>>;
  /** Node types of a value that makes a variable a function (`const f = () => {}`). */
  readonly functionValues: ReadonlySet<string>;
  /** Node types of a value that makes a variable a class (`const C = class {}`). */
  readonly classValues: ReadonlySet<string>;
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
export const LEADING: ReadonlySet<string> = new Set(['comment', 'decorator']);

/** The TypeScript/JavaScript node tables. */
export const SCRIPT_SYNTAX: ScriptSyntax = { statements: STATEMENTS, members: MEMBERS, functionValues: FUNCTION_VALUES, classValues: CLASS_VALUES };

function nameOf(node: Node | null, ctx: WalkContext, fallback: string): string {
  const name = node?.childForFieldName('name') ?? null;
  if (name === null) return fallback;
  const text = ctx.source.text.slice(name.startIndex, name.endIndex);
  return text.replace(/^['"`]|['"`]$/g, '').slice(0, 200) || fallback;
}

function firstNamed(node: Node, ctx: WalkContext): Node | null {
  for (const child of node.namedChildren) if (!ctx.spec.leading.has(child.type)) return child;
  return null;
}

/** Classifies a declaration node; `outer` is the statement whose span the unit takes. */
function classifyDeclaration(decl: Node, outer: Node, parent: string | null, exported: boolean, ctx: WalkContext): Unit | null {
  const role = SCRIPT_SYNTAX.statements[decl.type];
  const unit = (kind: ChunkKind, symbol: string, nested: Container | null = null, isSignature = false): Unit => ({
    type: 'unit', kind, symbol, parent, start: outer.startIndex, end: outer.endIndex, declStart: decl.startIndex,
    doc: '', nodes: [outer], isSignature, nested, merged: [],
  });
  switch (role) {
    case 'function':
      return unit('function', nameOf(decl, ctx, 'default'));
    case 'function-signature':
      return unit('function', nameOf(decl, ctx, 'default'), null, true);
    case 'interface':
    case 'type':
    case 'enum':
      return unit(role, nameOf(decl, ctx, 'default'));
    case 'class':
    case 'namespace': {
      const name = role === 'namespace' && decl.type === 'statement_block' ? 'global' : nameOf(decl, ctx, 'default');
      const body = decl.type === 'statement_block' ? decl : decl.childForFieldName('body');
      const nested: Container = {
        kind: role, name, parent, start: outer.startIndex, end: outer.endIndex, declStart: decl.startIndex, doc: '',
        body, memberParent: role === 'namespace' && parent !== null ? `${parent}.${name}` : name, isClass: role === 'class',
      };
      return unit(role, name, nested);
    }
    case 'variable':
      return classifyVariable(decl, outer, parent, exported, ctx);
    case 'expression':
      return classifyExpression(decl, outer, parent, ctx);
    default:
      return null;
  }
}

function isFunctionLike(value: Node | null, ctx: WalkContext): boolean {
  if (value === null) return false;
  if (SCRIPT_SYNTAX.functionValues.has(value.type)) return true;
  // Wrapped functions such as memo(() => ...) or forwardRef(function (...) {...}).
  if (value.type !== 'call_expression') return false;
  const args = value.childForFieldName('arguments');
  return args !== null && args.namedChildren.some((arg) => SCRIPT_SYNTAX.functionValues.has(arg.type));
}

function classifyVariable(decl: Node, outer: Node, parent: string | null, exported: boolean, ctx: WalkContext): Unit | null {
  const declarator = decl.namedChildren.find((c) => c.type === 'variable_declarator');
  if (declarator === undefined) return null;
  const name = nameOf(declarator, ctx, 'default');
  const value = declarator.childForFieldName('value');
  if (value !== null && SCRIPT_SYNTAX.classValues.has(value.type)) {
    const classUnit = classifyDeclaration(value, outer, parent, exported, ctx);
    if (classUnit !== null && classUnit.nested !== null) {
      const nested = { ...classUnit.nested, name, memberParent: name };
      return { ...classUnit, symbol: name, nested, declStart: decl.startIndex };
    }
  }
  const kind: ChunkKind | null = isFunctionLike(value, ctx) ? 'function' : exported ? 'const' : null;
  if (kind === null) return null;
  return {
    type: 'unit', kind, symbol: name, parent, start: outer.startIndex, end: outer.endIndex, declStart: decl.startIndex,
    doc: '', nodes: [outer], isSignature: false, nested: null, merged: [],
  };
}

/** `namespace X {}` parses as an expression statement; `exports.f = function` names a function. */
function classifyExpression(stmt: Node, outer: Node, parent: string | null, ctx: WalkContext): Unit | null {
  const inner = firstNamed(stmt, ctx);
  if (inner === null) return null;
  if (inner.type === 'internal_module') return classifyDeclaration(inner, outer, parent, false, ctx);
  if (inner.type !== 'assignment_expression') return null;
  const left = inner.childForFieldName('left');
  const right = inner.childForFieldName('right');
  if (left === null || left.type !== 'member_expression' || !isFunctionLike(right, ctx)) return null;
  const property = left.childForFieldName('property');
  const symbol = property === null ? 'default' : ctx.source.text.slice(property.startIndex, property.endIndex);
  return {
    type: 'unit', kind: 'function', symbol, parent, start: outer.startIndex, end: outer.endIndex, declStart: stmt.startIndex,
    doc: '', nodes: [outer], isSignature: false, nested: null, merged: [],
  };
}

/** Classifies one statement of a file or namespace body: a unit, 'import', or null (leftover code). */
export function classifyStatement(node: Node, parent: string | null, ctx: WalkContext): Unit | 'import' | null {
  const role = SCRIPT_SYNTAX.statements[node.type];
  if (role === 'import') return 'import';
  if (role === 'ambient') {
    const inner = firstNamed(node, ctx);
    if (inner === null) return null;
    const role2 = inner.type === 'statement_block' ? 'namespace' : SCRIPT_SYNTAX.statements[inner.type];
    if (role2 === 'namespace' && inner.type === 'statement_block') {
      const body = inner;
      const nested: Container = {
        kind: 'namespace', name: 'global', parent, start: node.startIndex, end: node.endIndex, declStart: node.startIndex,
        doc: '', body, memberParent: 'global', isClass: false,
      };
      return {
        type: 'unit', kind: 'namespace', symbol: 'global', parent, start: node.startIndex, end: node.endIndex,
        declStart: node.startIndex, doc: '', nodes: [node], isSignature: false, nested, merged: [],
      };
    }
    return classifyDeclaration(inner, node, parent, true, ctx);
  }
  if (role !== 'export') return classifyDeclaration(node, node, parent, false, ctx);
  const declaration = node.childForFieldName('declaration');
  if (declaration !== null) return classifyDeclaration(declaration, node, parent, true, ctx);
  const value = node.childForFieldName('value');
  if (value === null) return null;
  if (SCRIPT_SYNTAX.functionValues.has(value.type)) {
    return { ...leafUnit(node, 'function', nameOf(value, ctx, 'default'), parent), declStart: node.startIndex };
  }
  if (SCRIPT_SYNTAX.classValues.has(value.type)) {
    const unit = classifyDeclaration(value, node, parent, true, ctx);
    if (unit !== null) return { ...unit, declStart: node.startIndex, nested: unit.nested && { ...unit.nested, declStart: node.startIndex } };
  }
  return leafUnit(node, 'export', 'default', parent);
}

function leafUnit(node: Node, kind: ChunkKind, symbol: string, parent: string | null): Unit {
  return {
    type: 'unit', kind, symbol, parent, start: node.startIndex, end: node.endIndex, declStart: node.startIndex,
    doc: '', nodes: [node], isSignature: false, nested: null, merged: [],
  };
}

/** Classifies one class member: a 'method' unit (or overload signature), or null (part of the class chunk). */
export function classifyMember(node: Node, className: string, ctx: WalkContext): Unit | null {
  const role = SCRIPT_SYNTAX.members[node.type];
  if (role === undefined) return null;
  if (role === 'field') {
    const value = node.childForFieldName('value');
    if (value === null || !SCRIPT_SYNTAX.functionValues.has(value.type)) return null;
  }
  const name = node.childForFieldName('name');
  const symbol = name === null ? 'anonymous' : ctx.source.text.slice(name.startIndex, name.endIndex).slice(0, 200);
  return { ...leafUnit(node, 'method', symbol, className), isSignature: role === 'method-signature' };
}
