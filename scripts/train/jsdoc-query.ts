/**
 * Turns a JSDoc comment into a doc2code query as the eval README describes: the opening sentence or two of the
 * description, with tags, code blocks, links and markup stripped and the symbol's own name (and its camelCase
 * split) removed. Returns null for a query under four words or one that merely restates the name.
 */

const MIN_WORDS = 4;
const SHORT_SENTENCE_WORDS = 8;
const STOP_WORDS = new Set(['a', 'an', 'the', 'of', 'to', 'for', 'and', 'or', 'in', 'on', 'with', 'by', 'from', 'is', 'are', 'be', 'this', 'that', 'it', 'its', 'as', 'at', 'new', 'given', 'function', 'method', 'class', 'value', 'values', 'returns', 'return', 'which', 'will', 'can']);

const escapeRegExp = (s: string): string => s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/** The description part of a JSDoc comment: text before the first block tag, fenced code removed. */
export function jsdocDescription(comment: string): string {
  const lines = comment.replace(/^\/\*\*/, '').replace(/\*\/$/, '').split('\n').map((l) => l.replace(/^\s*\*(?: ?)/, ''));
  const kept: string[] = [];
  let inFence = false;
  for (const line of lines) {
    const t = line.trim();
    if (t.startsWith('```') || t.startsWith('~~~')) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    if (/^@[A-Za-z]/.test(t)) break;
    kept.push(t);
  }
  return kept.join('\n').trim();
}

/** Inline tags, links, HTML and markdown markup reduced to their plain text. */
function stripMarkup(text: string): string {
  return text
    .replace(/\{@(?:link|linkcode|linkplain)\s+([^}|\s]+)(?:[\s|]+([^}]*))?\}/g, (_m, target: string, label?: string) => (label?.trim() ? label.trim() : target))
    .replace(/\{@[a-zA-Z]+\s*([^}]*)\}/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\bhttps?:\/\/\S+/g, '')
    .replace(/<\/?[a-zA-Z][^>]*>/g, ' ')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/`/g, '')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|\s)[*_]([^*_\s][^*_]*?)[*_](?=[\s.,;:!?)]|$)/g, '$1$2')
    .replace(/^#+\s*/gm, '')
    .replace(/^\s*(?:[-*+]|\d+\.)\s+/gm, '');
}

/** The first paragraph's opening sentence, plus the second when the first is short. */
function openingSentences(text: string): string {
  const paragraph = (text.split(/\n\s*\n/).find((p) => p.trim() !== '') ?? '').replace(/\s+/g, ' ').trim();
  const sentences = paragraph.split(/(?<=[.!?])\s+(?=[A-Z0-9"'(])/);
  const first = sentences[0] ?? '';
  return countWords(first) < SHORT_SENTENCE_WORDS && sentences.length > 1 ? `${first} ${sentences[1]}` : first;
}

/** camelCase / PascalCase / snake_case parts of an identifier, lowercased. */
export function nameParts(name: string): string[] {
  return name
    .replace(/^[_$]+/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_$]+/)
    .filter((p) => p !== '')
    .map((p) => p.toLowerCase());
}

function countWords(text: string): number {
  return text.split(/\s+/).filter((w) => /[A-Za-z]/.test(w)).length;
}

const stem = (w: string): string => w.toLowerCase().replace(/(?:ies|es|s|ed|ing)$/, '');

/** True when every content word of the query is a part of the name (e.g. "Creates the user." for createUser). */
function restatesName(query: string, name: string): boolean {
  const parts = new Set(nameParts(name).map(stem));
  const words = query.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== '' && !STOP_WORDS.has(w));
  return words.every((w) => parts.has(stem(w)));
}

/** Removes the symbol's name (with a following `()`) and, for a compound name, its space-separated split. */
function removeName(text: string, name: string): string {
  let out = text.replace(new RegExp(`(?<![\\w$])${escapeRegExp(name)}(?:\\(\\))?(?![\\w$])`, 'g'), ' ');
  const parts = nameParts(name);
  if (parts.length > 1) out = out.replace(new RegExp(`(?<![\\w$])${parts.map(escapeRegExp).join('[\\s-]+')}(?![\\w$])`, 'gi'), ' ');
  return out
    .replace(/(["'(\[])\s*\1?\s*(["')\]])/g, (m, a: string, b: string) => (a + b === '""' || a + b === "''" || a + b === '()' || a + b === '[]' ? ' ' : m))
    .replace(/\s+([.,;:!?])(?=\s|$)/g, '$1')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.,;:!?-]+/, '')
    .trim();
}

/**
 * The doc2code query of a symbol's JSDoc, or null when it is too short or only restates the name.
 * @example jsdocQuery('/** Tracks the `useMouse` position of the mouse pointer. *\/', 'useMouse') // 'Tracks the position of the mouse pointer.'
 */
export function jsdocQuery(comment: string, name: string): string | null {
  const sentences = openingSentences(stripMarkup(jsdocDescription(comment)));
  const cleaned = removeName(sentences, name);
  if (cleaned === '' || countWords(cleaned) < MIN_WORDS || restatesName(cleaned, name)) return null;
  return cleaned.charAt(0).toUpperCase() + cleaned.slice(1);
}
