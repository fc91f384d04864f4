/**
 * From a symbol's doc text to a doc2code query, by the rules of the shared eval README as
 * scripts/train/jsdoc-query.ts applies them to JSDoc: the opening sentence (two when the first is short) of the
 * first paragraph, markup already stripped by the language adapter, the symbol's own name and its split
 * (snake_case or camelCase) removed; null for a query under four words or one that merely restates the name.
 */
import { nameParts } from '../train/jsdoc-query.js';

const MIN_WORDS = 4;
const SHORT_SENTENCE_WORDS = 8;
/** Words that say nothing about what a symbol does beyond its name. */
const STOP_WORDS = new Set([
  'a', 'an', 'the', 'of', 'to', 'for', 'and', 'or', 'in', 'on', 'with', 'by', 'from', 'is', 'are', 'be', 'this', 'that', 'it',
  'its', 'as', 'at', 'new', 'given', 'function', 'method', 'class', 'type', 'value', 'values', 'returns', 'return', 'which',
  'will', 'can', 'if', 'not', 'no', 'object', 'instance', 'current', 'get', 'gets', 'set', 'sets', 'create', 'creates',
]);

const escapeRegExp = (s: string): string => s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/** Number of words with a letter in them. */
export function countWords(text: string): number {
  return text.split(/\s+/).filter((w) => /[A-Za-z]/.test(w)).length;
}

/** The opening sentence of a paragraph (whitespace collapsed), plus the second when the first is short. */
export function openingSentences(paragraph: string): string {
  const flat = paragraph.replace(/\s+/g, ' ').trim();
  const sentences = flat.split(/(?<=[.!?])\s+(?=[A-Z0-9"'(])/);
  const first = sentences[0] ?? '';
  return countWords(first) < SHORT_SENTENCE_WORDS && sentences.length > 1 ? `${first} ${sentences[1]}` : first;
}

const stem = (w: string): string => w.toLowerCase().replace(/(?:ies|es|s|ed|ing)$/, '');

/** True when every content word of the query is a part of the name (e.g. "Returns the header value." for header_value). */
export function restatesName(query: string, name: string): boolean {
  const parts = new Set(nameParts(name).map(stem));
  const words = query.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== '' && !STOP_WORDS.has(w));
  return words.every((w) => parts.has(stem(w)));
}

/**
 * Removes the symbol's name (as written, dotted qualifiers and a following `()` included, with a leading article
 * when it opens the text: Go's "A Foo is ...") and, for a compound name, its space-separated split in any case.
 */
export function removeName(text: string, name: string): string {
  const word = (pattern: string): string => `(?<![\\w$.])${pattern}(?![\\w$])`;
  const qualified = `(?:[A-Za-z_][\\w]*\\.)*${escapeRegExp(name)}(?:\\(\\))?`;
  let out = text.replace(new RegExp(`^\\s*(?:(?:A|An|The)\\s+)?${qualified}(?![\\w$])`), ' ');
  out = out.replace(new RegExp(word(qualified), 'g'), ' ');
  const parts = nameParts(name);
  if (parts.length > 1) out = out.replace(new RegExp(word(parts.map(escapeRegExp).join('[\\s_-]+')), 'gi'), ' ');
  return out
    .replace(/(["'(\[])\s*(["')\]])/g, (m, a: string, b: string) => (['""', "''", '()', '[]'].includes(a + b) ? ' ' : m))
    .replace(/\s+([.,;:!?])(?=\s|$)/g, '$1')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.,;:!?-]+/, '')
    .trim();
}

/** The query of a symbol from its first paragraph of plain doc text, or null when it does not make a task. */
export function queryOf(paragraph: string, name: string): string | null {
  const cleaned = removeName(openingSentences(paragraph), name);
  if (cleaned === '' || countWords(cleaned) < MIN_WORDS || restatesName(cleaned, name)) return null;
  return cleaned.charAt(0).toUpperCase() + cleaned.slice(1);
}
