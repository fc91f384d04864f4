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

/** Tokens of one camelCase segment: short ones are whole pieces, long ones ~1 per 4 chars. */
function segmentTokens(text: string, start: number, end: number): number {
  const length = end - start;
  if (length <= 5) return 1;
  if (length <= 10 && WHOLE_WORDS.has(text.slice(start, end).toLowerCase())) return 1;
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
