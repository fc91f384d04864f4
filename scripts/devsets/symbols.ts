/** What a language adapter hands the doc2code builder. */

/** One declaration of a public symbol, with the first paragraph of its doc text when it has one. */
export interface DocumentedSymbol {
  readonly path: string;
  /** Qualified name, e.g. `Headers.get` or `Command.Execute`: declarations sharing it are one symbol (overloads). */
  readonly symbol: string;
  /** The bare name the doc text may repeat, e.g. `get`. */
  readonly name: string;
  /** 1-based inclusive lines of the declaration (decorators included, doc comment above not). */
  readonly startLine: number;
  readonly endLine: number;
  /** First paragraph of the doc text as plain text (markup stripped), '' when it is empty, null without doc. */
  readonly paragraph: string | null;
}

/** A language adapter: the public documented symbols of one source file. */
export type SymbolExtractor = (path: string, text: string) => DocumentedSymbol[];
