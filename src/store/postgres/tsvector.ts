/**
 * The PostgreSQL lexical row of a chunk, tokenised the way the SQLite catalog's FTS5 table is (`FTS_TOKENIZER`:
 * unicode61, diacritics removed, `_` part of a word): runs of letters, digits and `_`, lower-cased. PostgreSQL's own
 * parser would split `max_file_bytes` at the underscores and keep paths and URLs whole, so the tsvector is built
 * here as a literal instead, with positions and weights: text + lexical terms D, path C, symbol A (the FTS5 columns
 * `terms`, `path`, `symbol`).
 */

const WORD = /[\p{L}\p{N}_]+/gu;
/** PostgreSQL's limits: positions run to 16383, a lexeme keeps 256 of them, and is at most 2047 bytes. */
const MAX_POSITION = 16_383;
const MAX_POSITIONS_PER_LEXEME = 256;
const MAX_LEXEME_BYTES = 2047;

/** Weight letter of each lexical column, and its BM25 weight (as `BM25_WEIGHTS` of the SQLite catalog). */
export const COLUMN_WEIGHTS = { terms: { letter: 'D', bm25: 1 }, path: { letter: 'C', bm25: 0.5 }, symbol: { letter: 'A', bm25: 2 } } as const;

/** Lower-case, diacritics removed: the token as FTS5's unicode61 with `remove_diacritics 2` stores it. */
export function foldToken(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The tokens of `text`, folded, in order. */
export function tokensOf(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(WORD)) {
    const token = foldToken(match[0]);
    if (token !== '' && Buffer.byteLength(token) <= MAX_LEXEME_BYTES) out.push(token);
  }
  return out;
}

/** The columns of one chunk's lexical row. `terms` is the chunk text, a newline and its lexical terms. */
export interface LexicalColumns {
  readonly terms: string;
  readonly path: string;
  readonly symbol: string;
}

/** A tsvector literal (`'word':1,4A 'other':2C`) of the chunk's columns, and its length in tokens (BM25's document length). */
export function chunkTsvector(columns: LexicalColumns): { literal: string; tokenCount: number } {
  const positions = new Map<string, string[]>();
  let position = 0;
  for (const column of ['terms', 'path', 'symbol'] as const) {
    const letter = COLUMN_WEIGHTS[column].letter;
    for (const token of tokensOf(columns[column])) {
      position++;
      const list = positions.get(token) ?? [];
      if (list.length < MAX_POSITIONS_PER_LEXEME) list.push(`${Math.min(position, MAX_POSITION)}${letter === 'D' ? '' : letter}`);
      positions.set(token, list);
    }
  }
  const literal = [...positions].map(([token, list]) => `${quoteLexeme(token)}:${list.join(',')}`).join(' ');
  return { literal, tokenCount: position };
}

/** A lexeme quoted for tsvector/tsquery input. Tokens hold only letters, digits and `_`; quoting is still total. */
export function quoteLexeme(token: string): string {
  return `'${token.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}
