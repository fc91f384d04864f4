import { eng } from 'stopword';
import { splitIdentifier } from '../chunk/identifiers.js';

/** English stop words: in a query they match nearly every chunk and only cost time. */
const STOP_WORDS = new Set(eng);

/** Most terms one lexical query uses; longer queries keep their first terms. */
export const MAX_QUERY_TERMS = 32;

const WORD = /[\p{L}\p{N}_]+/gu;
/** Terms kept after dropping the most common ones. */
export const MAX_MATCH_TERMS = 16;
/** A term in more than this share of chunks says little and costs much: left out of the query. */
const MAX_DOCUMENT_SHARE = 0.25;

/**
 * Builds a safe FTS5 MATCH expression from free text: every word and identifier (plus its split parts)
 * becomes a double-quoted string, OR-ed together, so user text can never inject FTS5 syntax
 * (`*`, `NEAR(`, `OR`, column filters). Stop words are dropped; given document frequencies, so are terms
 * found in more than a quarter of the chunks, and the rarest 16 are kept. Returns null when no word is left.
 */
export function buildMatchExpression(
  text: string,
  options: {
    readonly documentFrequencies?: (words: readonly string[]) => Map<string, number>;
    readonly totalChunks?: number;
    /** Also match the parts of compound identifiers (default true); false looks for whole names only. */
    readonly splitIdentifiers?: boolean;
    /** Most terms kept, the rarest first (default MAX_MATCH_TERMS). */
    readonly maxTerms?: number;
  } = {},
): string | null {
  const { documentFrequencies, totalChunks = 0, splitIdentifiers = true, maxTerms = MAX_MATCH_TERMS } = options;
  const terms = new Set<string>();
  for (const match of text.matchAll(WORD)) {
    const word = match[0].toLowerCase();
    if (STOP_WORDS.has(word)) continue;
    if (word.replaceAll('_', '') !== '') terms.add(word);
    if (splitIdentifiers) for (const part of splitIdentifier(match[0])) terms.add(part);
    if (terms.size >= MAX_QUERY_TERMS) break;
  }
  let kept = [...terms].slice(0, MAX_QUERY_TERMS);
  if (documentFrequencies && totalChunks > 0 && kept.length > 0) {
    const df = documentFrequencies(kept);
    const rare = kept.filter((t) => (df.get(t) ?? 0) <= totalChunks * MAX_DOCUMENT_SHARE);
    // A term no chunk holds matches nothing: it must not take the place of a rare one that does. (When only such
    // terms are rare, the query matches nothing, and hybrid search is its vector half: common words would only
    // add noise there.)
    const rarePresent = rare.filter((t) => (df.get(t) ?? 0) > 0);
    // If every term is common, the rarest few still beat no query at all.
    const pool = rarePresent.length > 0 ? rarePresent : rare.length > 0 ? rare : kept;
    kept = pool.sort((a, b) => (df.get(a) ?? 0) - (df.get(b) ?? 0)).slice(0, maxTerms);
  }
  if (kept.length === 0) return null;
  // The words hold only letters, digits and `_`; quoting still guards against keywords like OR and NEAR.
  return kept.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ');
}

/**
 * The terms of an FTS5 MATCH expression as {@link buildMatchExpression} writes it (`"a" OR "b"`),
 * as written (lower-case words and identifier parts; the PostgreSQL store folds them to look them up). Stores
 * that rank by themselves (the PostgreSQL catalog, the overlay's score scale) reuse it, so query terms, stop words and
 * the common-term cut agree with the SQLite store.
 */
export function termsOfMatchExpression(match: string): string[] {
  return [...match.matchAll(/"((?:[^"]|"")*)"/g)].map((quoted) => quoted[1]!.replaceAll('""', '"'));
}
