import type Parser from 'tree-sitter';
import type { ChunkKind, Language } from '../../types.js';
import type { Container, Unit, WalkContext } from '../symbol-units.js';

export type SyntaxNode = Parser.SyntaxNode;

/** How one kind of declaration node becomes a chunk (see `classifyByRules`). */
export interface DefinitionRule {
  /** Chunk kind; a 'function' inside a class-like container becomes a 'method'. */
  readonly kind: ChunkKind;
  /** The symbol's name; default: the text of the node's `name` field. Null: not a symbol (leftover code). */
  readonly name?: (node: SyntaxNode, text: string) => string | null;
  /** The enclosing symbol when the syntax names it outside any container (Go receivers, C++ `A::f`); `container` lets it qualify the name (`ns.A`). */
  readonly parent?: (node: SyntaxNode, text: string, container: Container) => string | null;
  /** The node whose children are the members: the unit becomes a container walked for member symbols. */
  readonly body?: (node: SyntaxNode) => SyntaxNode | null;
  /** Members of this container are methods (class, impl, trait, interface) rather than free functions (namespace). */
  readonly classLike?: boolean;
  /** Overload-like declaration without a body (a C prototype, an abstract signature): joined with a following definition of the same name. */
  readonly isSignature?: (node: SyntaxNode) => boolean;
  /** Kind chosen by the node's content (a Go `type` that is a struct or an interface); overrides `kind`. */
  readonly kindOf?: (node: SyntaxNode) => ChunkKind;
  /** False: inside a class-like container this node stays part of the class chunk (Python class attributes). Default true. */
  readonly inClass?: boolean;
}

/**
 * Per-language facts for the tree-sitter chunker: the grammar, which nodes are comments and attached
 * annotations, and how a statement or member becomes a symbol unit. One file per language under this folder.
 */
export interface LanguageSpec {
  /** Grammar object handed to `Parser.setLanguage`, loaded on first use (a grammar that fails to load costs only its own files). */
  readonly grammar: () => unknown;
  /**
   * Path of a WASM build of the grammar, for a language with no native one here: parsed with web-tree-sitter,
   * loaded by the chunker's async `prepare()` (its files go by lines until then); `grammar` is then unused.
   */
  readonly wasm?: () => string;
  /** Node types glued to the following declaration: comments, and decorators/annotations/attributes. */
  readonly leading: ReadonlySet<string>;
  /** The subset of `leading` that is comments (doc text, same-line trailing comments); the rest are always glued. */
  readonly comments: ReadonlySet<string>;
  /** Classifies a child of a container's body: a symbol unit, 'import' (dropped, its names kept as references), or null (leftover code). */
  readonly classify: (node: SyntaxNode, container: Container, ctx: WalkContext) => Unit | 'import' | null;
  /** Blocks walked as if their children were the container's own (C `#ifdef` groups, `extern "C" {}`, Ruby `class << self`). */
  readonly transparent?: (node: SyntaxNode) => boolean;
  /** Another language whose spec should chunk this content (a C++ header named `.h`), or null. */
  readonly dialect?: (content: string) => Language | null;
  /** Documentation written inside a declaration (Python docstrings), used when no leading comment documents it. */
  readonly innerDoc?: (node: SyntaxNode, text: string) => string;
  /**
   * Patterns (global regexes) whose capture groups name what a chunk of this language uses from elsewhere:
   * qualified calls (`pkg.Func(`, `Type::new(`), base types, raised errors. Added to the calls, constructors and
   * type annotations every language shares (see `referencedNames`); the index keeps only names it defines.
   */
  readonly references?: readonly RegExp[];
}
