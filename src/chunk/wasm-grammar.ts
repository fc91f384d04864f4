import type Parser from 'tree-sitter';

/** A parsed file: its root, and `delete` to free the tree (WASM trees live in the module's memory, not the JS heap). */
export interface ParsedTree {
  readonly rootNode: Parser.SyntaxNode;
  delete?(): void;
}

/** A parser of a WASM grammar (web-tree-sitter), shaped like what the chunker needs of a native one. */
export interface WasmParser {
  readonly wasm: true;
  /** Parses `text`; null when parsing ran past `timeoutMs` (the parser is reset for the next file). */
  parse(text: string, timeoutMs: number): ParsedTree | null;
}

type WebTreeSitter = typeof import('web-tree-sitter');

/** The web-tree-sitter runtime, initialised once (its own WASM module) and only when a WASM grammar is used. */
let runtime: Promise<WebTreeSitter> | null = null;

function loadRuntime(): Promise<WebTreeSitter> {
  runtime ??= import('web-tree-sitter').then(async (module) => {
    await module.Parser.init();
    return module;
  });
  // A failed start is not kept: a later prepare() tries again.
  runtime.catch(() => {
    runtime = null;
  });
  return runtime;
}

/**
 * Loads a WASM grammar (a `.wasm` built by the tree-sitter CLI) into a parser. Its nodes have the same fields
 * and methods the chunker reads of native nodes (type, children, namedChildren, childForFieldName, indices in
 * UTF-16 units, positions, isNamed, parent, siblings), so the walker takes them as they are.
 * @throws when the runtime or the grammar cannot be loaded (missing file, ABI the runtime does not know).
 */
export async function loadWasmParser(wasmPath: string): Promise<WasmParser> {
  const { Parser: WebParser, Language } = await loadRuntime();
  const language = await Language.load(wasmPath);
  const parser = new WebParser();
  parser.setLanguage(language);
  return {
    wasm: true,
    parse(text: string, timeoutMs: number): ParsedTree | null {
      const deadline = performance.now() + timeoutMs;
      // The progress callback cancels the parse by returning true (typed void in web-tree-sitter 0.25).
      const progressCallback = (): boolean => performance.now() > deadline;
      const tree = parser.parse(text, null, { progressCallback });
      if (tree === null) {
        parser.reset();
        return null;
      }
      return { rootNode: tree.rootNode as unknown as Parser.SyntaxNode, delete: () => tree.delete() };
    },
  };
}
