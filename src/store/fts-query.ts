/** Most terms one lexical query uses; longer queries keep their first terms. */
export const MAX_QUERY_TERMS = 32;

const WORD = /[\p{L}\p{N}_]+/gu;
const PART = /\p{Lu}+(?!\p{Ll})|\p{Lu}?\p{Ll}+|\p{N}+|\p{Lo}+/gu;

/**
 * Splits one identifier into its lower-case words: `throttleRequests` -> `throttle requests`,
 * `HTTPServer` -> `http server`, `_get_server_data_file_path` -> `get server data file path`.
 * Returns [] when the identifier has a single part (the whole word is already a term).
 */
export function splitIdentifier(identifier: string): string[] {
  const parts: string[] = [];
  for (const segment of identifier.split('_')) {
    for (const match of segment.matchAll(PART)) parts.push(match[0].toLowerCase());
  }
  return parts.length > 1 ? parts : [];
}

/**
 * The split words of every compound identifier in `text`, de-duplicated, space-separated: the
 * `lexicalTerms` a caller stores beside a chunk so that `throttle` finds `throttleRequests`.
 */
export function identifierTerms(text: string): string {
  const terms = new Set<string>();
  for (const match of text.matchAll(WORD)) {
    for (const part of splitIdentifier(match[0])) terms.add(part);
  }
  return [...terms].join(' ');
}

/**
 * Builds a safe FTS5 MATCH expression from free text: every word and identifier (plus its split parts)
 * becomes a double-quoted string, OR-ed together, so user text can never inject FTS5 syntax
 * (`*`, `NEAR(`, `OR`, column filters). Returns null when the text holds no word at all.
 */
export function buildMatchExpression(text: string): string | null {
  const terms = new Set<string>();
  for (const match of text.matchAll(WORD)) {
    const word = match[0].toLowerCase();
    if (word.replaceAll('_', '') !== '') terms.add(word);
    for (const part of splitIdentifier(match[0])) terms.add(part);
    if (terms.size >= MAX_QUERY_TERMS) break;
  }
  if (terms.size === 0) return null;
  // The words hold only letters, digits and `_`; quoting still guards against keywords like OR and NEAR.
  return [...terms].slice(0, MAX_QUERY_TERMS).map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ');
}
