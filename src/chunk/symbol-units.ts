import type Parser from 'tree-sitter';
import type { ChunkKind } from '../types.js';
import type { LanguageSpec } from './languages/language-spec.js';
import type { SourceText } from './source-text.js';

type Node = Parser.SyntaxNode;

/** A container whose body is walked for member symbols: the file, a class or a namespace. */
export interface Container {
  /** Kind of the chunks made of leftover code: 'module', 'class' or 'namespace'. */
  readonly kind: ChunkKind;
  readonly name: string;
  readonly parent: string | null;
  /** Whole container, from its first leading comment or decorator to its end. */
  start: number;
  end: number;
  /** Where the declaration itself starts (after comments/decorators), for the signature. */
  declStart: number;
  /** Where the body starts (the signature ends there), when the syntax marks it. */
  bodyStart?: number;
  doc: string;
  /** Node whose children are the members (program, class_body, statement_block), or null if none. */
  readonly body: Node | null;
  /** Parent name given to member symbols (null at file level). */
  readonly memberParent: string | null;
  readonly isClass: boolean;
}

/** A symbol found in a container. Classes and namespaces carry a nested container. */
export interface Unit {
  readonly type: 'unit';
  kind: ChunkKind;
  readonly symbol: string;
  readonly parent: string | null;
  start: number;
  end: number;
  declStart: number;
  /** Where the body starts (the signature ends there), when the syntax marks it. */
  bodyStart?: number;
  doc: string;
  /** The statement node(s): several when overload signatures are grouped with their implementation. */
  nodes: Node[];
  readonly isSignature: boolean;
  readonly nested: Container | null;
  merged: string[];
}

/** Consecutive leftover nodes (fields, statements, stray comments) of a container. */
export interface Run {
  readonly type: 'run';
  start: number;
  end: number;
  readonly nodes: Node[];
}

/** A container's content in source order; `barrier` marks a dropped import between items. */
export type Item = Unit | Run | { readonly type: 'barrier' };

/** Facts the walker needs about the file. */
export interface WalkContext {
  readonly source: SourceText;
  readonly spec: LanguageSpec;
  /** Line ranges (1-based, inclusive) of dropped imports, for the coverage check. */
  readonly importLines: Array<[number, number]>;
}
