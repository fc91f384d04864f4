import type Database from 'better-sqlite3';
import type { LexicalHit } from './catalog-types.js';
import { buildMatchExpression } from './fts-query.js';

/** BM25 column weights of `chunks_fts` (terms, path, symbol): a symbol-name hit counts most. */
export const BM25_WEIGHTS = { terms: 1, path: 0.5, symbol: 2 } as const;

const { terms, path, symbol } = BM25_WEIGHTS;
const SEARCH_SQL = `SELECT chunks_fts.rowid AS rowId, bm25(chunks_fts, ${terms}, ${path}, ${symbol}) AS rank, f.path AS path
  FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN files f ON f.id = c.file_id
  WHERE chunks_fts MATCH ? ORDER BY rank`;

type Row = { rowId: number; rank: number; path: string };

/**
 * The body of `Catalog.lexicalSearch`: BM25 over the FTS index, best first, score = -bm25 (higher is
 * better). `accept` filters by path while streaming the ranked matches, stopping once k are accepted.
 */
export function searchChunksFts(
  db: Database.Database,
  query: string,
  options: { readonly k: number; readonly accept?: (path: string) => boolean },
): LexicalHit[] {
  const match = buildMatchExpression(query);
  if (match === null || options.k <= 0) return [];
  if (options.accept === undefined) {
    const rows = db.prepare(`${SEARCH_SQL} LIMIT ?`).all(match, Math.floor(options.k)) as Row[];
    return rows.map((r) => ({ rowId: r.rowId, score: -r.rank }));
  }
  const hits: LexicalHit[] = [];
  for (const row of db.prepare(SEARCH_SQL).iterate(match) as IterableIterator<Row>) {
    if (!options.accept(row.path)) continue;
    hits.push({ rowId: row.rowId, score: -row.rank });
    if (hits.length >= options.k) break; // leaving the loop early finalises the cursor
  }
  return hits;
}
