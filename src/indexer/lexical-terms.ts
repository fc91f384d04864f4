import { identifierTerms, splitIdentifier } from '../chunk/identifiers.js';
import type { Chunk } from '../types.js';

/**
 * Extra words for the full-text index of a chunk: the split identifiers of its code, symbol and parent,
 * so `throttle` finds `throttleRequests` and "rate limiter" finds `RateLimiter`.
 * A pure function of the chunk's text and names (the catalog keeps FTS rows of unchanged chunks).
 */
export function lexicalTermsFor(chunk: Pick<Chunk, 'text' | 'symbol' | 'parent' | 'signature'>): string {
  const terms = new Set<string>(identifierTerms(chunk.text));
  for (const name of [chunk.symbol, chunk.parent ?? '']) for (const t of splitIdentifier(name)) terms.add(t);
  return [...terms].join(' ');
}
