import Parser from 'tree-sitter';
import type { Chunk, Language } from '../types.js';
import { buildChunk, signatureOf, type ChunkDraft, type FileFacts } from './chunk-record.js';
import type { ChunkInput, ChunkResult, Chunker } from './chunker.js';
import { walkContainer } from './container-walk.js';
import { TREE_SITTER_LANGUAGES, type LanguageSpec } from './languages/index.js';
import { chunkByLineWindows, codeBudget, fileBaseName } from './line-window-chunker.js';
import { SourceText, type Span } from './source-text.js';
import { finishChunks } from './finish-chunks.js';
import { SpanTokens } from './span-tokens.js';
import { splitNodeRun } from './split-large.js';
import { loadWasmParser, type ParsedTree, type WasmParser } from './wasm-grammar.js';
import type { Container, Item, Run, Unit, WalkContext } from './symbol-units.js';
import { estimateTokens, type CountTokens } from './token-estimate.js';

/** Files longer than this (chars) are cut by lines without parsing. */
const MAX_PARSE_CHARS = 2 * 1024 * 1024;
/** Chunk kinds whose tiny neighbours are merged into one chunk. */
const MERGEABLE = new Set(['type', 'const', 'interface', 'enum', 'export']);
/** A unit is tiny (mergeable) when its code is at most this fraction of the code budget. */
const TINY_FRACTION = 0.25;
/** Class/namespace nesting beyond which inner containers are kept whole (bounds recursion). */
const MAX_CONTAINER_DEPTH = 32;
/** Chars handed to tree-sitter per read callback: below the binding's 32 Ki UTF-16 unit buffer, whose overflow path fails with "Invalid argument". */
const READ_CHUNK_CHARS = 16 * 1024;

/** Options of `TreeSitterChunker`. */
export interface TreeSitterChunkerOptions {
  /** Most model tokens of a chunk's embedText (header + code). */
  readonly maxTokens: number;
  /** Token counter of the embedding model; default `estimateTokens`. */
  readonly countTokens?: CountTokens;
  /** Parse time budget per file in ms (default 3000); over it the file is cut by lines. */
  readonly parseTimeoutMs?: number;
  /** Language specs to use instead of the built-in ones (tests, embedders adding a language). */
  readonly languages?: Readonly<Partial<Record<Language, LanguageSpec>>>;
}

interface FileState extends WalkContext {
  readonly file: FileFacts;
  readonly spans: SpanTokens;
  readonly chunks: Chunk[];
}

/**
 * Symbol chunker for TypeScript, TSX, JavaScript and JSX built on tree-sitter: one chunk per function,
 * class header, method, interface, type, enum, namespace member, exported const and default export,
 * leftover statements as module chunks; big symbols split into parts within `maxTokens`.
 * Falls back to line windows (with a warning) for huge files, parse timeouts and parser errors; never throws.
 */
export class TreeSitterChunker implements Chunker {
  readonly languages: readonly Language[];
  private readonly specs: Readonly<Partial<Record<Language, LanguageSpec>>>;
  private readonly count: CountTokens;
  /** A parser per language, or why its grammar failed to load (said once, then its files quietly go by lines). */
  private readonly parsers = new Map<Language, Parser | WasmParser | { readonly failed: string }>();
  /** WASM grammars being loaded or loaded by `prepare` (each language at most once). */
  private readonly wasmLoads = new Map<Language, Promise<void>>();

  constructor(private readonly options: TreeSitterChunkerOptions) {
    this.count = options.countTokens ?? estimateTokens;
    this.specs = options.languages ?? TREE_SITTER_LANGUAGES;
    this.languages = Object.keys(this.specs) as Language[];
  }

  /** Loads the WASM grammars of these languages (default: all with one); never rejects, a failure is said by `chunk`. */
  async prepare(languages: readonly Language[] = this.languages): Promise<void> {
    const loads: Array<Promise<void>> = [];
    for (const language of new Set(languages)) {
      const wasm = this.specs[language]?.wasm;
      if (wasm === undefined) continue;
      let load = this.wasmLoads.get(language);
      if (load === undefined) {
        load = (async () => {
          try {
            this.parsers.set(language, await loadWasmParser(wasm()));
          } catch (error) {
            this.parsers.set(language, { failed: (error as Error).message.split('\n')[0] || 'unknown error' });
          }
        })();
        this.wasmLoads.set(language, load);
      }
      loads.push(load);
    }
    await Promise.all(loads);
  }

  /** Cuts one file into chunks; pure apart from the cached parsers. Never throws. */
  chunk(input: ChunkInput): ChunkResult {
    const fallback = (why: string): ChunkResult => ({
      chunks: chunkByLineWindows(input, { maxTokens: this.options.maxTokens, countTokens: this.count }),
      warnings: [`${input.path}: ${why}; cut into line windows`],
    });
    if (input.content.length > MAX_PARSE_CHARS) return fallback(`too long to parse (${input.content.length} chars)`);
    // A spec may hand its content to another (a C++ header named `.h` is parsed as C++; chunks keep the file's language).
    const dialect = this.specs[input.language]?.dialect?.(input.content) ?? null;
    const language = dialect !== null && this.specs[dialect] !== undefined ? dialect : input.language;
    const parser = this.parserFor(language);
    if ('failed' in parser) {
      const first = parser.failed !== '';
      this.parsers.set(language, { failed: '' });
      const lines = fallback('');
      const warning = `${input.path}: the ${language} grammar failed to load (${parser.failed}); this and every later ${language} file is cut into line windows`;
      return { chunks: lines.chunks, warnings: first ? [warning] : [] };
    }
    let tree: ParsedTree | null;
    try {
      tree = this.parse(parser, input);
    } catch (error) {
      return fallback(`parser failed: ${(error as Error).message}`);
    }
    if (tree === null) return fallback(`parse exceeded ${this.options.parseTimeoutMs ?? 3000} ms`);
    try {
      return { chunks: this.chunkTree(input, tree, language), warnings: [] };
    } catch (error) {
      // A chunker bug on one odd file must not lose the file: index it by lines and say so.
      return fallback(`symbol chunking failed: ${(error as Error).message}`);
    } finally {
      tree.delete?.();
    }
  }

  /** The language's parser, its grammar loaded on first use; a grammar that fails to load fails only its own files. */
  private parserFor(language: Language): Parser | WasmParser | { readonly failed: string } {
    const known = this.parsers.get(language);
    if (known !== undefined) return known;
    let made: Parser | { readonly failed: string };
    try {
      const spec = this.specs[language];
      if (spec === undefined) throw new Error(`no tree-sitter grammar for language ${language}`);
      if (spec.wasm !== undefined) throw new Error('its WASM grammar loads in prepare(), which was not awaited');
      const parser = new Parser();
      parser.setLanguage(spec.grammar() as Parser.Language);
      parser.setTimeoutMicros((this.options.parseTimeoutMs ?? 3000) * 1000);
      made = parser;
    } catch (error) {
      made = { failed: (error as Error).message.split('\n')[0] || 'unknown error' };
    }
    this.parsers.set(language, made);
    return made;
  }

  private parse(parser: Parser | WasmParser, input: ChunkInput): ParsedTree | null {
    const text = input.content;
    if ('wasm' in parser) return parser.parse(text, this.options.parseTimeoutMs ?? 3000);
    // The callback form with small slices: a plain string over 32 Ki chars fails in the 0.21 binding.
    const tree = parser.parse((index: number) => text.slice(index, index + READ_CHUNK_CHARS)) as Parser.Tree | null;
    if (tree === null) parser.reset();
    return tree;
  }

  private chunkTree(input: ChunkInput, tree: ParsedTree, language: Language): Chunk[] {
    const spec = this.specs[language];
    if (spec === undefined) return [];
    const source = new SourceText(input.content);
    const state: FileState = {
      source, spec, importLines: [], chunks: [], spans: new SpanTokens(source, this.count),
      file: { path: input.path, language: input.language, source },
    };
    const root = tree.rootNode;
    const module: Container = {
      kind: 'module', name: fileBaseName(input.path), parent: null, start: 0, end: input.content.length,
      declStart: root.startIndex, doc: '', body: root, memberParent: null, isClass: false,
    };
    this.emitContainer(state, module, 0);
    return finishChunks(state.file, state.chunks, state.importLines, {
      maxTokens: this.options.maxTokens, count: this.count,
    });
  }

  private emitContainer(state: FileState, container: Container, depth: number): void {
    const items = this.mergeTiny(state, walkContainer(container, state)).filter((i): i is Unit | Run => i.type !== 'barrier');
    const first = items[0];
    const last = items[items.length - 1];
    if (first === undefined || last === undefined) {
      this.emitRun(state, container, { type: 'run', start: container.start, end: container.end, nodes: [] }, true);
      return;
    }
    let headerRun: Run | null = null;
    if (container.kind === 'module') {
      // The file has no header: the program's children cover it, and imports before them are dropped.
    } else if (first.type === 'run') {
      first.start = container.start;
      headerRun = first;
    } else if (!state.source.isBlank(container.start, first.start)) {
      headerRun = { type: 'run', start: container.start, end: first.start, nodes: [] };
      items.unshift(headerRun);
    }
    if (!state.source.isBlank(last.end, container.end)) last.end = container.end;
    for (const item of items) {
      if (item.type === 'run') this.emitRun(state, container, item, item === headerRun);
      else if (item.nested !== null && depth < MAX_CONTAINER_DEPTH) {
        item.nested.start = item.start;
        item.nested.end = item.end;
        item.nested.doc = item.doc;
        item.nested.declStart = item.declStart;
        item.nested.bodyStart = item.bodyStart;
        this.emitContainer(state, item.nested, depth + 1);
      } else this.emitUnit(state, item);
    }
  }

  private emitRun(state: FileState, container: Container, run: Run, isHeader: boolean): void {
    const firstNode = run.nodes[0];
    const isDeclaration = isHeader && container.kind !== 'module';
    const sigStart = isDeclaration ? container.declStart : (firstNode?.startIndex ?? run.start);
    const sigEnd = isDeclaration && container.bodyStart !== undefined ? Math.min(container.bodyStart, run.end) : run.end;
    const draft: ChunkDraft = {
      kind: container.kind, symbol: container.name, parent: container.parent,
      signature: signatureOf(state.source.text, sigStart, sigEnd), doc: isHeader ? container.doc : '',
    };
    this.emitParts(state, draft, run.nodes, run);
  }

  private emitUnit(state: FileState, unit: Unit): void {
    const draft: ChunkDraft = {
      kind: unit.kind, symbol: unit.symbol, parent: unit.parent, merged: unit.merged,
      signature: signatureOf(state.source.text, unit.declStart, unit.bodyStart ?? unit.end), doc: unit.doc,
    };
    this.emitParts(state, draft, unit.nodes, unit);
  }

  private emitParts(state: FileState, draft: ChunkDraft, nodes: readonly Parser.SyntaxNode[], span: Span): void {
    const budget = codeBudget(state.file, draft, this.options.maxTokens, this.count);
    const parts = splitNodeRun({ source: state.source, budget, count: this.count, spans: state.spans }, nodes, span)
      .map((part) => state.source.tidy(part))
      .filter((part) => part.end > part.start);
    parts.forEach((part, index) => {
      const partInfo = parts.length > 1 ? { index, count: parts.length } : undefined;
      state.chunks.push(buildChunk(state.file, draft, part, { part: partInfo, withContext: index > 0 }));
    });
  }

  /** Merges runs of adjacent tiny units of the same mergeable kind, up to the budget. */
  private mergeTiny(state: FileState, items: Item[]): Item[] {
    const out: Item[] = [];
    const tokens = (start: number, end: number): number => state.spans.tokens(start, end);
    for (const item of items) {
      const prev = out[out.length - 1];
      if (item.type === 'unit' && prev?.type === 'unit' && this.canMerge(prev, item)) {
        const draft: ChunkDraft = {
          kind: prev.kind, symbol: prev.symbol, parent: prev.parent, signature: '', doc: prev.doc, merged: [...prev.merged, item.symbol],
        };
        const budget = codeBudget(state.file, draft, this.options.maxTokens, this.count);
        const prevIsTiny = prev.merged.length > 0 || tokens(prev.start, prev.end) <= budget * TINY_FRACTION;
        if (prevIsTiny && tokens(item.start, item.end) <= budget * TINY_FRACTION && tokens(prev.start, item.end) <= budget) {
          out[out.length - 1] = { ...prev, end: item.end, nodes: [...prev.nodes, ...item.nodes], merged: draft.merged as string[] };
          continue;
        }
      }
      out.push(item);
    }
    return out;
  }

  private canMerge(a: Unit, b: Unit): boolean {
    return a.kind === b.kind && MERGEABLE.has(a.kind) && a.nested === null && b.nested === null && !a.isSignature && !b.isSignature;
  }
}
