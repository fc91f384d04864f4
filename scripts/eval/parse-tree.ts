/** tree-sitter parsing for the eval scripts (blank rules and set builders): one cached parser per grammar. */
import Parser from 'tree-sitter';
import Go from 'tree-sitter-go';
import Python from 'tree-sitter-python';

/** The grammars the blank rules and set builders parse. */
export type TreeGrammar = 'python' | 'go';

const GRAMMARS: Readonly<Record<TreeGrammar, Parser.Language>> = { python: Python as Parser.Language, go: Go as Parser.Language };
/** Chars per read callback: below the binding's 32 Ki UTF-16 unit buffer, whose overflow fails with "Invalid argument". */
const READ_CHUNK_CHARS = 16 * 1024;
const parsers = new Map<TreeGrammar, Parser>();

/** The syntax tree of `text`; node indexes are UTF-16 offsets into `text`. @throws Error when tree-sitter returns no tree. */
export function parseTree(grammar: TreeGrammar, text: string): Parser.Tree {
  let parser = parsers.get(grammar);
  if (parser === undefined) {
    parser = new Parser();
    parser.setLanguage(GRAMMARS[grammar]);
    parsers.set(grammar, parser);
  }
  const tree = parser.parse((index: number) => text.slice(index, index + READ_CHUNK_CHARS)) as Parser.Tree | null;
  if (tree === null) {
    parser.reset();
    throw new Error(`tree-sitter (${grammar}) returned no tree`);
  }
  return tree;
}

/** A half-open range of UTF-16 offsets. */
export interface TextSpan {
  readonly startIndex: number;
  readonly endIndex: number;
}

/** Replaces every character of each span except newlines with a space, so line count and line numbers stay. */
export function blankSpans(text: string, spans: readonly TextSpan[]): string {
  const sorted = [...spans].sort((a, b) => a.startIndex - b.startIndex);
  let out = '';
  let at = 0;
  for (const s of sorted) {
    if (s.startIndex < at) continue; // nested or overlapping: already blanked
    out += text.slice(at, s.startIndex) + text.slice(s.startIndex, s.endIndex).replace(/[^\n]/g, ' ');
    at = s.endIndex;
  }
  return out + text.slice(at);
}
