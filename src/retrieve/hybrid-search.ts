import type { AsyncCatalog } from '../store/catalog-port.js';
import type { ChunkRow, LexicalHit } from '../store/catalog-types.js';
import type { VectorStore } from '../store/vector-store.js';
import type { Hit, SearchMode } from '../types.js';
import type { PathPredicate } from './path-globs.js';
import { dot } from './query-vector.js';

/** Reciprocal-rank-fusion constant: larger flattens the head of each list. */
export const RRF_K = 60;

/** Weights of the two lists in the fusion (tuned on the dev sets, see bench/RESULTS.md). */
export const FUSION_WEIGHTS = Object.freeze({ vector: 1, lexical: 1 });

/** Lexical weight when the query names an identifier (`parseConfig`, `max_file_bytes`): exact names decide. */
export const IDENTIFIER_LEXICAL_WEIGHT = 2;

const COMPOUND_IDENTIFIER = /^(?:[a-z]+[A-Z][A-Za-z0-9]*|[A-Za-z][A-Za-z0-9]*[_$][A-Za-z0-9_$]+|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)$/;

/** The tokens of a text shaped like compound identifiers: inner capitals, or `_`/`$` between letters. */
export function identifierTokens(text: string): string[] {
  return [...new Set((text.match(/[A-Za-z_$][A-Za-z0-9_$]*/g) ?? []).filter((t) => COMPOUND_IDENTIFIER.test(t)))];
}

/** True when the text names at least one compound identifier (`parseConfig`, `max_file_bytes`, `HttpServer`). */
export function namesIdentifier(text: string): boolean {
  return identifierTokens(text).length > 0;
}

/** Added to the fused score of a chunk whose symbol is an identifier the query names: more than any list can give. */
const EXACT_SYMBOL_BONUS = 2 / RRF_K;

/** Candidates each list contributes to the fusion. */
export const HYBRID_POOL = 50;

/** One candidate with the raw evidence of each list. */
export interface ScoredChunk {
  readonly row: ChunkRow;
  /** Fused score (higher is better). */
  readonly score: number;
  /** Cosine similarity to the query vector, when the vector list saw it. */
  readonly similarity?: number;
  /** BM25 (higher is better), when the lexical list saw it. */
  readonly bm25?: number;
}

/** What a search needs to reach. */
export interface SearchSources {
  readonly catalog: AsyncCatalog;
  readonly vectors: VectorStore;
}

/** Options of {@link searchChunks}. */
export interface SearchChunksOptions {
  readonly mode: SearchMode;
  readonly k: number;
  /** The query vector (required for vector and hybrid). */
  readonly vector?: Float32Array;
  /** Free text for the lexical side (required for lexical and hybrid). */
  readonly text?: string;
  readonly accept?: PathPredicate;
  /** Lexical side matches whole identifiers only (no split parts): for looking up names. */
  readonly wholeWordsOnly?: boolean;
  /** The lexical list for this text and filter, already ranked by the caller (at least the pool deep): not searched again. */
  readonly lexicalHits?: readonly LexicalHit[];
}

/**
 * One-shot search: nearest vectors, BM25, or both fused by weighted reciprocal rank.
 * Path filters are applied before the final ranking (the vector side over-fetches until k pass).
 */
export async function searchChunks(sources: SearchSources, o: SearchChunksOptions): Promise<ScoredChunk[]> {
  // A fixed candidate pool per list keeps the fused top ranks independent of k.
  const depth = o.mode === 'hybrid' ? Math.max(HYBRID_POOL, o.k) : o.k;
  // Hybrid only (lexical stays plain BM25): a definition named exactly by the query comes first, within the filter.
  const named = o.mode === 'hybrid' && o.text ? identifierTokens(o.text) : [];
  // The three reads are independent: asked together, so a store across the network answers them in one round trip.
  const [fromVectors, lexicalList, exact] = await Promise.all([
    o.mode !== 'lexical' && o.vector ? vectorCandidates(sources, o.vector, depth, o.accept) : undefined,
    o.mode !== 'vector' && o.text
      ? (o.lexicalHits?.slice(0, depth) ?? sources.catalog.lexicalSearch(o.text, { k: depth, accept: o.accept, wholeWordsOnly: o.wholeWordsOnly }))
      : [],
    named.length > 0 ? exactSymbolRows(sources.catalog, named) : [],
  ]);
  const vectorList = fromVectors?.hits ?? [];
  const fused = new Map<number, { score: number; similarity?: number; bm25?: number }>();
  vectorList.forEach((h, rank) => {
    fused.set(h.rowId, { score: FUSION_WEIGHTS.vector / (RRF_K + rank + 1), similarity: h.similarity });
  });
  const lexicalWeight = o.text && namesIdentifier(o.text) ? IDENTIFIER_LEXICAL_WEIGHT : FUSION_WEIGHTS.lexical;
  lexicalList.forEach((h, rank) => {
    const entry = fused.get(h.rowId) ?? { score: 0 };
    entry.score += lexicalWeight / (RRF_K + rank + 1);
    entry.bm25 = h.score;
    fused.set(h.rowId, entry);
  });
  for (const row of exact) {
    if (o.accept && !o.accept(row.path)) continue;
    const entry = fused.get(row.rowId) ?? { score: 0 };
    entry.score += EXACT_SYMBOL_BONUS;
    fused.set(row.rowId, entry);
  }
  const ranked = [...fused.entries()].sort((a, b) => b[1].score - a[1].score).slice(0, o.k);
  // Rows the vector side already read are reused; only lexical-only hits are read here.
  const rows = new Map(fromVectors?.rows ?? []);
  for (const r of exact) if (!rows.has(r.rowId)) rows.set(r.rowId, r);
  for (const r of await sources.catalog.getChunks(ranked.map(([id]) => id).filter((id) => !rows.has(id)))) rows.set(r.rowId, r);
  return ranked.flatMap(([id, e]) => {
    const row = rows.get(id);
    return row ? [{ row, score: e.score, similarity: e.similarity, bm25: e.bm25 }] : [];
  });
}

/** The definitions (methods too) named exactly by one of `names`. */
async function exactSymbolRows(catalog: AsyncCatalog, names: readonly string[]): Promise<ChunkRow[]> {
  return catalog.getChunks(await catalog.findSymbolRowIds(names, 20, { includeMethods: true }));
}

/** Nearest vectors whose path passes the filter (widening until k pass), with the chunk rows of those kept. */
async function vectorCandidates(
  sources: SearchSources,
  vector: Float32Array,
  k: number,
  accept?: PathPredicate,
): Promise<{ hits: Array<{ rowId: number; similarity: number }>; rows: Map<number, ChunkRow> }> {
  const size = await sources.vectors.count();
  if (size === 0) return { hits: [], rows: new Map() };
  let want = accept ? Math.min(size, k * 4) : Math.min(size, k);
  for (;;) {
    const hits = await sources.vectors.query(vector, { k: want });
    // Paths first (a light read) when filtering; whole rows only for the hits that are kept.
    const paths = accept ? await sources.catalog.rowPaths(hits.map((h) => h.rowId)) : undefined;
    const passed = paths ? hits.filter((h) => paths.has(h.rowId) && accept!(paths.get(h.rowId)!)) : hits;
    if (passed.length >= k || want >= size) {
      const kept = passed.slice(0, k);
      const rows = new Map((await sources.catalog.getChunks(kept.map((h) => h.rowId))).map((r) => [r.rowId, r]));
      return { hits: kept.filter((h) => rows.has(h.rowId)), rows };
    }
    want = Math.min(size, want * 4);
  }
}

/**
 * Fills in the cosine similarity to the query of the hits the vector list did not see (lexical-only hits of a
 * hybrid search, and exact symbol matches), so every hit of a vector or hybrid search has one. `vectorsOf` returns
 * the cached vectors of chunk rows (rows without one keep no similarity).
 */
export async function completeSimilarity(
  scored: readonly ScoredChunk[],
  query: Float32Array,
  vectorsOf: (rowIds: readonly number[]) => Promise<ReadonlyArray<{ rowId: number; vector: Float32Array }>>,
): Promise<ScoredChunk[]> {
  const missing = scored.filter((c) => c.similarity === undefined).map((c) => c.row.rowId);
  if (missing.length === 0) return [...scored];
  const sims = new Map((await vectorsOf(missing)).map((v) => [v.rowId, dot(query, v.vector)]));
  return scored.map((c) => (c.similarity === undefined && sims.has(c.row.rowId) ? { ...c, similarity: sims.get(c.row.rowId)! } : c));
}

/** A scored chunk as the public Hit. */
export function toHit(c: ScoredChunk): Hit {
  const { row } = c;
  return {
    chunkId: row.chunkId,
    path: row.path,
    startLine: row.startLine,
    endLine: row.endLine,
    symbol: row.symbol,
    kind: row.kind,
    parent: row.parent,
    signature: row.signature,
    score: Number(c.score.toFixed(6)),
    ...(c.similarity === undefined ? {} : { similarity: Number(c.similarity.toFixed(4)) }),
    text: row.text,
    ...(row.part === undefined ? {} : { part: row.part }),
  };
}
