/**
 * doc2code tasks: exported functions, classes and consts with a JSDoc description. The query comes from the
 * JSDoc (see jsdoc-query.ts); the gold is every declaration of the symbol (overloads as separate entries) from
 * `export` to its closing line, in each file that declares it with the same description (re-exports).
 */
import type Parser from 'tree-sitter';
import { jsdocQuery } from './jsdoc-query.js';

/** A gold location of a doc2code task. */
export interface SymbolGold {
  readonly path: string;
  readonly symbol: string;
  readonly startLine: number;
  readonly endLine: number;
}

/** A doc2code task before ids are given. */
export interface Doc2CodeCandidate {
  readonly query: string;
  readonly gold: SymbolGold[];
}

/** One exported declaration and the JSDoc directly above it (null when there is none). */
interface Declaration extends SymbolGold {
  readonly jsdoc: string | null;
}

const DECLARATIONS = new Set([
  'function_declaration', 'generator_function_declaration', 'function_signature', 'class_declaration', 'abstract_class_declaration',
  'lexical_declaration', 'variable_declaration',
]);

/** The declared name of an export statement's declaration, or null (several declarators, destructuring, anonymous). */
function declaredName(decl: Parser.SyntaxNode): string | null {
  if (decl.type === 'lexical_declaration' || decl.type === 'variable_declaration') {
    const declarators = decl.namedChildren.filter((c) => c.type === 'variable_declarator');
    const name = declarators.length === 1 ? declarators[0]?.childForFieldName('name') : null;
    return name?.type === 'identifier' ? name.text : null;
  }
  return decl.childForFieldName('name')?.text ?? null;
}

/** Top-level exported declarations of one file with their JSDoc. */
export function exportedDeclarations(path: string, text: string, tree: Parser.Tree): Declaration[] {
  const out: Declaration[] = [];
  for (const node of tree.rootNode.namedChildren) {
    if (node.type !== 'export_statement') continue;
    const decl = node.childForFieldName('declaration') ?? node.namedChildren.find((c) => DECLARATIONS.has(c.type));
    if (decl === undefined || decl === null || !DECLARATIONS.has(decl.type)) continue;
    const symbol = declaredName(decl);
    if (symbol === null) continue;
    const prev = node.previousNamedSibling;
    const prevText = prev?.type === 'comment' ? text.slice(prev.startIndex, prev.endIndex) : '';
    const isAbove = prev !== null && prev.endPosition.row >= node.startPosition.row - 1;
    const jsdoc = isAbove && prevText.startsWith('/**') && prevText !== '/**/' ? prevText : null;
    out.push({ path, symbol, startLine: node.startPosition.row + 1, endLine: node.endPosition.row + 1, jsdoc });
  }
  return out;
}

/**
 * Builds the doc2code candidates of a corpus from its exported declarations. A query shared by different
 * symbols is ambiguous and dropped; one symbol with the same query in several files becomes one task listing
 * every location.
 */
export function buildDoc2Code(declarations: readonly Declaration[]): Doc2CodeCandidate[] {
  // Group the declarations of one symbol in one file: overloads are separate gold entries of one task.
  const groups = new Map<string, Declaration[]>();
  for (const d of declarations) {
    const key = `${d.path}\0${d.symbol}`;
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  const byQuery = new Map<string, { query: string; symbols: Set<string>; gold: SymbolGold[] }>();
  for (const decls of groups.values()) {
    const first = decls.find((d) => d.jsdoc !== null);
    if (first === undefined) continue;
    const query = jsdocQuery(first.jsdoc as string, first.symbol);
    if (query === null) continue;
    const key = query.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
    const entry = byQuery.get(key) ?? { query, symbols: new Set<string>(), gold: [] };
    entry.symbols.add(first.symbol);
    entry.gold.push(...decls.map(({ path, symbol, startLine, endLine }) => ({ path, symbol, startLine, endLine })));
    byQuery.set(key, entry);
  }
  const out: Doc2CodeCandidate[] = [];
  for (const e of byQuery.values()) {
    if (e.symbols.size !== 1) continue; // the same description on different symbols: ambiguous
    out.push({ query: e.query, gold: e.gold.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.startLine - b.startLine)) });
  }
  return out;
}
