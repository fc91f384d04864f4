import type { LexicalHit } from '../catalog-types.js';
import { buildMatchExpression, termsOfMatchExpression } from '../fts-query.js';
import type { LexicalSearchOptions } from '../catalog-port.js';
import type { Sql } from './connection.js';
import { COLUMN_WEIGHTS, foldToken, quoteLexeme } from './tsvector.js';

/** FTS5's BM25 constants, so scores compare with the SQLite store's. */
const K1 = 1.2;
const B = 0.75;
/** Most ranked rows (as a multiple of k) read while looking for k that pass a path filter (as the SQLite store). */
const MAX_FILTER_DEPTH = 16;

const { terms: D, path: C, symbol: A } = COLUMN_WEIGHTS;
// BM25 as FTS5's bm25() computes it: per query term, its weighted frequency in the row (each occurrence counts its
// column's weight), idf, and the row's length in tokens against the namespace's average. The GIN index finds the
// rows that hold any term; common terms were already cut by buildMatchExpression, so the candidates stay few.
const RANK_SQL = `
WITH q AS (SELECT * FROM unnest($2::text[], $3::float8[]) AS q(term, idf)),
cand AS (SELECT c.id, c.terms, c.term_count FROM chunks c WHERE c.namespace_id = $1 AND c.terms @@ $4::tsquery)
SELECT cand.id AS "rowId",
  sum(q.idf * (t.tf * ${K1 + 1}) / (t.tf + ${K1} * (1 - ${B} + ${B} * cand.term_count / $5::float8))) AS score
FROM cand
CROSS JOIN LATERAL (
  SELECT u.lexeme, (SELECT sum(CASE w WHEN '${A.letter}' THEN ${A.bm25} WHEN '${C.letter}' THEN ${C.bm25} ELSE ${D.bm25} END)
                    FROM unnest(u.weights) AS w) AS tf
  FROM unnest(cand.terms) AS u WHERE u.lexeme = ANY($2::text[])
) t
JOIN q ON q.term = t.lexeme
GROUP BY cand.id
ORDER BY score DESC, cand.id
LIMIT $6`;

/** What the search needs from the catalog: namespace size and document frequencies (both remembered per generation). */
export interface LexicalContext {
  readonly namespaceId: number;
  readonly totalChunks: number;
  /** Average row length in tokens. */
  readonly averageTokens: number;
  documentFrequencies(words: readonly string[]): Promise<Map<string, number>>;
  rowPaths(rowIds: readonly number[]): Promise<Map<number, string>>;
}

/**
 * The body of `PostgresCatalog.lexicalSearch`: the query terms of `buildMatchExpression` (the SQLite store's, so
 * stop words, identifier parts and the common-term cut agree), ranked by BM25 over the namespace's chunks, best
 * first. `accept` filters by path; ranked rows are fetched in growing pages until k pass.
 */
export async function searchChunksLexical(sql: Sql, query: string, options: LexicalSearchOptions, context: LexicalContext): Promise<LexicalHit[]> {
  const k = Math.floor(options.k);
  if (k <= 0 || context.totalChunks === 0) return [];
  const splitIdentifiers = !options.wholeWordsOnly;
  // buildMatchExpression asks for document frequencies synchronously: look its candidate terms up first.
  const candidates = buildMatchExpression(query, { splitIdentifiers, maxTerms: options.maxTerms });
  if (candidates === null) return [];
  const df = await context.documentFrequencies(termsOfMatchExpression(candidates));
  const match = buildMatchExpression(query, {
    splitIdentifiers, maxTerms: options.maxTerms, totalChunks: context.totalChunks,
    documentFrequencies: (words) => new Map(words.map((w) => [w, df.get(w) ?? 0])),
  });
  if (match === null) return [];
  const idf = new Map<string, number>();
  for (const raw of termsOfMatchExpression(match)) {
    const n = df.get(raw) ?? 0;
    const value = Math.log((context.totalChunks - n + 0.5) / (n + 0.5));
    idf.set(foldToken(raw), value > 0 ? value : 1e-6);
  }
  const terms = [...idf.keys()];
  const tsquery = terms.map(quoteLexeme).join(' | ');
  const rank = (limit: number) => sql.rows<{ rowId: number; score: number }>(
    RANK_SQL, [context.namespaceId, terms, terms.map((t) => idf.get(t)), tsquery, Math.max(context.averageTokens, 1), limit],
  );
  const toHits = (rows: Array<{ rowId: number; score: number }>): LexicalHit[] => rows.map((r) => ({ rowId: r.rowId, score: Number(r.score) }));
  if (options.accept === undefined) return toHits(await rank(k));
  for (let limit = k * 4; ; limit *= 4) {
    const rows = await rank(limit);
    const pathOf = await context.rowPaths(rows.map((r) => r.rowId));
    const hits = rows.filter((r) => options.accept!(pathOf.get(r.rowId) ?? '')).slice(0, k);
    if (hits.length >= k || rows.length < limit || limit >= k * MAX_FILTER_DEPTH) return toHits(hits);
  }
}
