/** tree-sitter parsing of corpus files (TypeScript, TSX, JavaScript), one parser per grammar. */
import Parser from 'tree-sitter';
import JavaScript from 'tree-sitter-javascript';
import TypeScript from 'tree-sitter-typescript';
import { JSDOC_PATTERN } from '../eval/blank-jsdoc.js';

const READ_CHUNK_CHARS = 16 * 1024;
const PARSE_TIMEOUT_MS = 5000;

/** Parses source text by file extension; one instance keeps one parser per grammar. */
export class SourceParser {
  private readonly parsers = new Map<string, Parser>();

  /** The syntax tree of `text`, or null when the extension has no grammar or the parse times out. */
  parse(path: string, text: string): Parser.Tree | null {
    const grammar = /\.tsx$/.test(path) ? 'tsx' : /\.[mc]?ts$/.test(path) ? 'typescript' : /\.[mc]?jsx?$/.test(path) ? 'javascript' : null;
    if (grammar === null) return null;
    let parser = this.parsers.get(grammar);
    if (parser === undefined) {
      parser = new Parser();
      parser.setLanguage((grammar === 'tsx' ? TypeScript.tsx : grammar === 'typescript' ? TypeScript.typescript : JavaScript));
      parser.setTimeoutMicros(PARSE_TIMEOUT_MS * 1000);
      this.parsers.set(grammar, parser);
    }
    // The callback form: a plain string over 32 Ki chars fails in the 0.21 binding.
    const tree = parser.parse((index: number) => text.slice(index, index + READ_CHUNK_CHARS)) as Parser.Tree | null;
    if (tree === null) parser.reset();
    return tree;
  }
}

/**
 * True when the README's JSDoc regex finds exactly the `/** *\/` comments the tokenizer finds, so blanking by
 * regex touches comments only (a string such as 'src/**\/*.ts' would make the regex blank code).
 */
export function isJsdocRegexExact(text: string, tree: Parser.Tree): boolean {
  const byRegex = [...text.matchAll(JSDOC_PATTERN)].map((m) => m[0]);
  const byTree = tree.rootNode
    .descendantsOfType('comment')
    .map((n) => text.slice(n.startIndex, n.endIndex))
    .filter((c) => c.startsWith('/**') && c !== '/**/');
  return byRegex.length === byTree.length && byRegex.every((c, i) => c === byTree[i]);
}
