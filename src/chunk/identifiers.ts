/** Word boundaries inside one identifier chunk of letters and digits. */
const PART = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;
const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/g;

/**
 * Splits an identifier into lower-case terms at `_`, `-`, `$`, `.`, camelCase and PascalCase humps,
 * acronym ends and letter/digit changes: `parseHTTPResponse2xx` -> ['parse', 'http', 'response', '2', 'xx'],
 * `MAX_RETRY_COUNT` -> ['max', 'retry', 'count']. Returns [] when there is no letter or digit.
 */
export function splitIdentifier(identifier: string): string[] {
  const terms: string[] = [];
  for (const match of identifier.matchAll(PART)) terms.push(match[0].toLowerCase());
  return terms;
}

/**
 * All distinct terms (`splitIdentifier`) of all identifiers in a text, in order of first appearance;
 * one-character terms are dropped as noise. For lexical search and gap terms.
 */
export function identifierTerms(text: string): string[] {
  const seen = new Set<string>();
  for (const match of text.matchAll(IDENTIFIER)) {
    for (const term of splitIdentifier(match[0])) {
      if (term.length > 1) seen.add(term);
    }
  }
  return [...seen];
}
