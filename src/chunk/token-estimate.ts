/** Counts model tokens in a text; the chunker's size unit. */
export type CountTokens = (text: string) => number;

/** Frequent code words that a BERT WordPiece vocabulary holds whole (lower case). */
const WHOLE_WORDS: ReadonlySet<string> = new Set([
  'function', 'return', 'export', 'import', 'default', 'string', 'number', 'boolean', 'interface',
  'extends', 'implements', 'private', 'public', 'protected', 'readonly', 'constructor', 'undefined',
  'typeof', 'instanceof', 'static', 'abstract', 'promise', 'object', 'module', 'require', 'const',
  'async', 'await', 'class', 'throw', 'error', 'value', 'result', 'options', 'length', 'false',
  'true', 'null', 'void', 'yield', 'while', 'switch', 'break', 'continue', 'delete', 'catch',
  'finally', 'index', 'first', 'should', 'before', 'after', 'create', 'update', 'remove',
]);

const enum Cls {
  Space,
  Lower,
  Upper,
  Digit,
  Other,
}

/** Char class of each ASCII code; everything above 127 counts as Other (one token each). */
const ASCII_CLASS: Uint8Array = (() => {
  const table = new Uint8Array(128).fill(Cls.Other);
  for (let c = 97; c <= 122; c += 1) table[c] = Cls.Lower;
  for (let c = 65; c <= 90; c += 1) table[c] = Cls.Upper;
  for (let c = 48; c <= 57; c += 1) table[c] = Cls.Digit;
  for (const c of [9, 10, 11, 12, 13, 32]) table[c] = Cls.Space;
  return table;
})();

function classOf(code: number): Cls {
  return code < 128 ? (ASCII_CLASS[code] as Cls) : Cls.Other;
}

/** A hash of the letters in [start, end), case folded (`| 0x20` lower-cases an ASCII letter, all a segment holds). */
function letterHash(text: string, start: number, end: number): number {
  let hash = 0;
  for (let i = start; i < end; i += 1) hash = (Math.imul(hash, 31) + (text.charCodeAt(i) | 0x20)) | 0;
  return hash;
}

/** WHOLE_WORDS by `letterHash`, so a segment is looked up without slicing and lower-casing it. */
const WHOLE_WORDS_BY_HASH: ReadonlyMap<number, readonly string[]> = (() => {
  const byHash = new Map<number, string[]>();
  for (const word of WHOLE_WORDS) {
    const hash = letterHash(word, 0, word.length);
    byHash.set(hash, [...(byHash.get(hash) ?? []), word]);
  }
  return byHash;
})();

/** Whether the letters in [start, end), case folded, are one of WHOLE_WORDS. */
function isWholeWord(text: string, start: number, end: number): boolean {
  const words = WHOLE_WORDS_BY_HASH.get(letterHash(text, start, end));
  if (words === undefined) return false;
  return words.some((word) => {
    if (word.length !== end - start) return false;
    for (let k = 0; k < word.length; k += 1) if ((text.charCodeAt(start + k) | 0x20) !== word.charCodeAt(k)) return false;
    return true;
  });
}

/** Tokens of one camelCase segment (ASCII letters only): short ones are whole pieces, long ones ~1 per 4 chars. */
function segmentTokens(text: string, start: number, end: number): number {
  const length = end - start;
  if (length <= 5) return 1;
  if (length <= 10 && isWholeWord(text, start, end)) return 1;
  return Math.ceil(length / 4);
}

/**
 * Cheap estimate of the number of BERT WordPiece tokens (uncased) in a code text, over- rather than
 * under-estimating: one per punctuation or non-ASCII char, one per run of up to 3 digits, and per
 * word one per camelCase segment (long segments ~one per 4 chars). Linear time, no allocation per char.
 */
export function estimateTokens(text: string): number {
  return estimateTokensIn(text, 0, text.length);
}

/**
 * `estimateTokens(text.slice(start, end))` without making the slice: the chunker counts spans and lines of one
 * file's text many times over.
 */
export function estimateTokensIn(text: string, start: number, end: number): number {
  let tokens = 0;
  let i = start;
  const n = end;
  while (i < n) {
    const cls = classOf(text.charCodeAt(i));
    if (cls === Cls.Space) {
      i += 1;
    } else if (cls === Cls.Other) {
      tokens += 1;
      i += 1;
    } else if (cls === Cls.Digit) {
      const first = i;
      while (i < n && classOf(text.charCodeAt(i)) === Cls.Digit) i += 1;
      tokens += Math.ceil((i - first) / 3);
    } else {
      // A camelCase segment: optional capitals run then lower case letters ("HTTPServer" -> HTTP, Server).
      const first = i;
      if (cls === Cls.Upper) {
        while (i < n && classOf(text.charCodeAt(i)) === Cls.Upper) i += 1;
        if (i < n && i - first > 1 && classOf(text.charCodeAt(i)) === Cls.Lower) i -= 1;
      }
      while (i < n && classOf(text.charCodeAt(i)) === Cls.Lower) i += 1;
      tokens += segmentTokens(text, first, i);
    }
  }
  return tokens;
}
