import type { AsyncCatalog, LexicalSearchOptions } from '../catalog-port.js';
import type { LexicalHit } from '../catalog-types.js';
import { buildMatchExpression, termsOfMatchExpression } from '../fts-query.js';

/** FTS5's floor for the idf of a term in more than half the rows. */
const MIN_IDF = 1e-6;

/** BM25's idf of a term in `n` of `total` rows, as FTS5 computes it. */
export function bm25Idf(n: number, total: number): number {
  const idf = Math.log((total - n + 0.5) / (n + 0.5));
  return idf > 0 ? idf : MIN_IDF;
}

/**
 * The local layer's BM25 scores on the shared layer's scale. A score is a sum of idf-weighted term matches, and the
 * local layer's idf comes from its own few rows; weighting its matched terms by the idf of both layers together
 * instead makes a local file score about as it would had it been indexed into the shared index.
 */
export async function localScoreScale(o: { query: string; wholeWordsOnly?: boolean; base: AsyncCatalog; local: AsyncCatalog }): Promise<number> {
  const match = buildMatchExpression(o.query, { splitIdentifiers: !o.wholeWordsOnly });
  if (match === null) return 1;
  const terms = [...new Set(termsOfMatchExpression(match))];
  const [sharedDf, ownDf, sharedTotal, ownTotal] = await Promise.all([
    o.base.documentFrequencies(terms), o.local.documentFrequencies(terms), o.base.chunkCount(), o.local.chunkCount(),
  ]);
  let together = 0;
  let alone = 0;
  for (const term of terms) {
    const own = ownDf.get(term) ?? 0;
    if (own === 0) continue;
    together += bm25Idf(own + (sharedDf.get(term) ?? 0), ownTotal + sharedTotal);
    alone += bm25Idf(own, ownTotal);
  }
  return alone > 0 ? together / alone : 1;
}

/** Both layers' lexical hits in one list, best first, at most `options.k`: the local ones rescaled by {@link localScoreScale}. */
export async function mergeLexicalHits(o: {
  query: string;
  options: LexicalSearchOptions;
  shared: readonly LexicalHit[];
  own: readonly LexicalHit[];
  layers: { readonly base: AsyncCatalog; readonly local: AsyncCatalog };
}): Promise<LexicalHit[]> {
  if (o.own.length === 0) return o.shared.slice(0, o.options.k);
  const scale = await localScoreScale({ query: o.query, wholeWordsOnly: o.options.wholeWordsOnly, ...o.layers });
  const merged = [...o.shared, ...o.own.map((h) => ({ rowId: h.rowId, score: h.score * scale }))];
  return merged.sort((a, b) => b.score - a.score).slice(0, Math.floor(o.options.k));
}
