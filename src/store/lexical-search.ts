import type Database from 'better-sqlite3';
import type { LexicalHit } from './catalog-types.js';
import { buildMatchExpression } from './fts-query.js';
import { cachedStatement } from './statement-cache.js';

/** BM25 column weights of `chunks_fts` (terms, path, symbol): a symbol-name hit counts most. */
export const BM25_WEIGHTS = { terms: 1, path: 0.5, symbol: 2 } as const;

const { terms, path, symbol } = BM25_WEIGHTS;
// Ranking inside the FTS table alone lets FTS5 stop after the best rows (its rank + LIMIT optimisation);
// joining first would sort every match. Paths are looked up for the few rows kept.
const TOP_SQL = `SELECT rowid AS rowId, rank FROM chunks_fts
  WHERE chunks_fts MATCH ? AND rank MATCH 'bm25(${terms}, ${path}, ${symbol})' ORDER BY rank LIMIT ?`;

type Row = { rowId: number; rank: number };

/** Path of each of the given chunk rows (rows that no longer exist are left out). */
export function rowPaths(db: Database.Database, rowIds: readonly number[]): Map<number, string> {
  if (rowIds.length === 0) return new Map();
  const sql = 'SELECT c.id AS rowId, f.path AS path FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.id IN (SELECT value FROM json_each(?))';
  const rows = cachedStatement(db, sql).all(JSON.stringify(rowIds)) as Array<{ rowId: number; path: string }>;
  return new Map(rows.map((r) => [r.rowId, r.path]));
}

/** Most ranked rows (as a multiple of k) read while looking for k that pass a path filter. */
const MAX_FILTER_DEPTH = 16;

/**
 * The body of `Catalog.lexicalSearch`: BM25 over the FTS index, best first, score = -bm25 (higher is
 * better). `accept` filters by path; the ranked matches are fetched in growing pages until k are accepted.
 */
export function searchChunksFts(
  db: Database.Database,
  query: string,
  options: { readonly k: number; readonly accept?: (path: string) => boolean; readonly wholeWordsOnly?: boolean;
    readonly totalChunks: number; readonly documentFrequencies: (words: readonly string[]) => Map<string, number>;
    /** Most query terms used, the rarest first. */
    readonly maxTerms?: number },
): LexicalHit[] {
  const match = buildMatchExpression(query, {
    documentFrequencies: options.documentFrequencies,
    totalChunks: options.totalChunks,
    splitIdentifiers: !options.wholeWordsOnly,
    maxTerms: options.maxTerms,
  });
  const k = Math.floor(options.k);
  if (match === null || k <= 0) return [];
  const top = cachedStatement(db, TOP_SQL);
  if (options.accept === undefined) {
    return (top.all(match, k) as Row[]).map((r) => ({ rowId: r.rowId, score: -r.rank }));
  }
  // Pages grow 4x, up to MAX_FILTER_DEPTH times k ranked rows: a narrow filter over a common query returns the
  // best matches among those rather than ranking the whole index.
  for (let limit = k * 4; ; limit *= 4) {
    const rows = top.all(match, limit) as Row[];
    const pathOf = rowPaths(db, rows.map((r) => r.rowId));
    const hits = rows.filter((r) => options.accept!(pathOf.get(r.rowId) ?? '')).slice(0, k);
    if (hits.length >= k || rows.length < limit || limit >= k * MAX_FILTER_DEPTH) return hits.map((r) => ({ rowId: r.rowId, score: -r.rank }));
  }
}
