import type { AsyncCatalog, LexicalSearchOptions } from '../catalog-port.js';
import type { LexicalHit } from '../catalog-types.js';
import { buildMatchExpression, termsOfMatchExpression } from '../fts-query.js';

/** FTS5's floor for the idf of a term in more than half the rows. */
const MIN_IDF = 1e-6;
/** Rows read per query term from the local layer (at least k): it holds a working tree's edits, a few files. */
const LOCAL_ROWS_PER_TERM = 100;

/** BM25's idf of a term in `n` of `total` rows, as FTS5 computes it. */
export function bm25Idf(n: number, total: number): number {
  const idf = Math.log((total - n + 0.5) / (n + 0.5));
  return idf > 0 ? idf : MIN_IDF;
}

/**
 * The local layer's lexical hits for `query`, scored as if its rows were in the shared index. A store ranks by its
 * own statistics, and the local layer's few rows would make most words look common (dropped from the query) and
 * weigh the rest by the wrong idf. So the query's terms are chosen with both layers' document frequencies (as the
 * shared layer chooses them, up to its shadowed rows), each term is searched in the local layer alone (a one-term
 * BM25 score is the term's idf times its frequency part), and each term's score is re-weighted from the local idf
 * to the idf of both layers together before the terms are summed per row.
 */
export async function localHitsOnSharedScale(o: {
  query: string;
  options: LexicalSearchOptions;
  base: AsyncCatalog;
  local: AsyncCatalog;
}): Promise<LexicalHit[]> {
  const splitIdentifiers = !o.options.wholeWordsOnly;
  const candidates = buildMatchExpression(o.query, { splitIdentifiers, maxTerms: o.options.maxTerms });
  if (candidates === null) return [];
  const words = [...new Set(termsOfMatchExpression(candidates))];
  const [sharedDf, ownDf, sharedTotal, ownTotal] = await Promise.all([
    o.base.documentFrequencies(words), o.local.documentFrequencies(words), o.base.chunkCount(), o.local.chunkCount(),
  ]);
  const total = sharedTotal + ownTotal;
  const df = (w: string): number => (sharedDf.get(w) ?? 0) + (ownDf.get(w) ?? 0);
  const match = buildMatchExpression(o.query, {
    splitIdentifiers, maxTerms: o.options.maxTerms, totalChunks: total, documentFrequencies: (ws) => new Map(ws.map((w) => [w, df(w)])),
  });
  if (match === null) return [];
  const terms = [...new Set(termsOfMatchExpression(match))].filter((t) => (ownDf.get(t) ?? 0) > 0);
  const k = Math.floor(o.options.k);
  const perTerm = await Promise.all(terms.map(async (term) => ({
    term,
    hits: await o.local.lexicalSearch(term, { k: Math.max(k, LOCAL_ROWS_PER_TERM), accept: o.options.accept, wholeWordsOnly: true, maxTerms: 1 }),
  })));
  const scores = new Map<number, number>();
  for (const { term, hits } of perTerm) {
    const reweight = bm25Idf(df(term), total) / bm25Idf(ownDf.get(term) ?? 0, ownTotal);
    for (const h of hits) scores.set(h.rowId, (scores.get(h.rowId) ?? 0) + h.score * reweight);
  }
  return [...scores].map(([rowId, score]) => ({ rowId, score })).sort((a, b) => b.score - a.score || a.rowId - b.rowId).slice(0, k);
}

/** Both layers' lexical hits (already in overlay ids and on one scale) in one list, best first, at most `k`. */
export function mergeLexicalHits(shared: readonly LexicalHit[], own: readonly LexicalHit[], k: number): LexicalHit[] {
  return [...shared, ...own].sort((a, b) => b.score - a.score).slice(0, Math.floor(k));
}
