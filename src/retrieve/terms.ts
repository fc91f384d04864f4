import { stemmer } from 'stemmer';
import { eng } from 'stopword';
import { splitIdentifier } from '../chunk/identifiers.js';

/** Words that say little about *which* code a task means: English stop words plus request verbs. */
const TASK_NOISE = new Set([
  ...eng,
  'add', 'adds', 'added', 'fix', 'fixes', 'fixed', 'bug', 'bugs', 'issue', 'make', 'makes', 'use', 'uses', 'used', 'using',
  'implement', 'implemented', 'support', 'supports', 'new', 'code', 'file', 'files', 'function', 'functions', 'method',
  'change', 'changes', 'changed', 'update', 'updates', 'updated', 'way', 'also', 'now', 'instead', 'allow', 'allows',
  'need', 'needs', 'want', 'should', 'would', 'could', 'can', 'will', 'may', 'must', 'get', 'gets', 'set', 'sets',
  'where', 'which', 'when', 'what', 'how', 'why', 'thing', 'things', 'some', 'any', 'every', 'each', 'given', 'returns',
  'return', 'value', 'values', 'true', 'false', 'null', 'undefined', 'etc', 'e.g', 'i.e', 'one', 'two', 'like',
]);

/** Language keywords and ubiquitous identifiers: never "the code base's own terminology". */
export const CODE_NOISE = new Set([
  'const', 'let', 'var', 'function', 'return', 'export', 'import', 'from', 'default', 'async', 'await', 'class',
  'interface', 'type', 'extends', 'implements', 'new', 'this', 'null', 'undefined', 'true', 'false', 'if', 'else',
  'for', 'while', 'do', 'switch', 'case', 'break', 'continue', 'throw', 'try', 'catch', 'finally', 'typeof',
  'instanceof', 'void', 'string', 'number', 'boolean', 'object', 'any', 'unknown', 'never', 'readonly', 'public',
  'private', 'protected', 'static', 'get', 'set', 'of', 'in', 'as', 'is', 'keyof', 'length', 'push', 'map',
  'filter', 'value', 'key', 'index', 'item', 'items', 'args', 'options', 'opts', 'params', 'props', 'data', 'result',
  'error', 'err', 'self', 'then', 'resolve', 'reject', 'promise', 'array', 'to', 'the', 'and', 'or', 'not', 'it',
  'expect', 'test', 'describe', 'should', 'todo', 'fn', 'cb', 'callback', 'prototype', 'call', 'apply', 'bind',
  'constructor', 'super', 'console', 'log', 'json', 'parse', 'stringify', 'math', 'max', 'min', 'ts', 'js',
]);

/** True for words that never make a useful search term: stop words, request verbs, language keywords. */
export function isNoiseWord(word: string): boolean {
  return TASK_NOISE.has(word) || CODE_NOISE.has(word);
}

/** The stem of a lower-case word (Porter), so "limits", "limiting" and "limited" meet. */
export function stem(word: string): string {
  return stemmer(word.toLowerCase());
}

/** A content term of a task: its surface form (for display and lexical search) and its stem (for matching). */
export interface TaskTerm {
  readonly word: string;
  readonly stem: string;
}

/**
 * The content terms of free text: words and split identifiers, lower-cased, without stop words,
 * request verbs or one-letter tokens, deduplicated by stem in order of appearance.
 */
export function contentTerms(text: string): TaskTerm[] {
  const seen = new Set<string>();
  const out: TaskTerm[] = [];
  for (const token of text.match(/[A-Za-z][A-Za-z0-9_$]*/g) ?? []) {
    const parts = splitIdentifier(token);
    const words = parts.length > 1 ? [token.toLowerCase(), ...parts] : parts;
    for (const word of words) {
      if (word.length < 2 || TASK_NOISE.has(word) || /^\d+$/.test(word)) continue;
      const s = stem(word);
      if (seen.has(s)) continue;
      seen.add(s);
      out.push({ word, stem: s });
    }
  }
  return out;
}

/** Most tokens whose stems are remembered; the memo is dropped and started again beyond this. */
const TOKEN_MEMO_LIMIT = 200_000;
/** token -> stems of the token and of its identifier parts: code repeats its words, Porter stemming is costly. */
const tokenStems = new Map<string, readonly string[]>();

function stemsOfToken(token: string): readonly string[] {
  let stems = tokenStems.get(token);
  if (stems === undefined) {
    const out = new Set([stem(token.toLowerCase())]);
    for (const p of splitIdentifier(token)) if (p.length > 1) out.add(stem(p));
    stems = [...out];
    if (tokenStems.size >= TOKEN_MEMO_LIMIT) tokenStems.clear();
    tokenStems.set(token, stems);
  }
  return stems;
}

/** Stems of every identifier part and word in a chunk's text, symbol and path: what a task term can match. */
export function chunkStems(parts: { text: string; symbol: string; parent: string | null; path: string }): Set<string> {
  const stems = new Set<string>();
  const add = (s: string): void => {
    for (const token of s.match(/[A-Za-z][A-Za-z0-9_$]*/g) ?? []) for (const st of stemsOfToken(token)) stems.add(st);
  };
  add(parts.text);
  add(parts.symbol);
  add(parts.parent ?? '');
  add(parts.path);
  return stems;
}

/** Stems of a chunk's names only (symbol, parent, path): a match here is stronger evidence than in the body. */
export function nameStems(parts: { symbol: string; parent: string | null; path: string }): Set<string> {
  return chunkStems({ text: '', ...parts });
}
