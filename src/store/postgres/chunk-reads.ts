import type { ChunkKind, Language } from '../../types.js';
import type { ChunkRow, FileRow } from '../catalog-types.js';
import type { Sql } from './connection.js';
import { foldToken, quoteLexeme } from './tsvector.js';

/** Chunks joined with their files; `$1` is always the namespace. */
export const CHUNK_SELECT = `SELECT c.id, c.chunk_key, f.path, f.language, c.kind, c.symbol, c.parent, c.signature,
  c.start_line, c.end_line, c.part_index, c.part_count, c.text_hash, c.text
  FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.namespace_id = $1`;

export interface RawChunk {
  id: number; chunk_key: string; path: string; language: string; kind: string; symbol: string; parent: string | null;
  signature: string; start_line: number; end_line: number; part_index: number | null; part_count: number | null;
  text_hash: string; text: string;
}
export interface RawFile { path: string; size: number; mtime_ms: number; content_hash: string; language: string; indexed_at: number }

/** A files row as the catalog types have it. */
export function toFileRow(r: RawFile): FileRow {
  return {
    path: r.path, size: r.size, mtimeMs: r.mtime_ms, contentHash: r.content_hash,
    language: r.language as Language, indexedAt: r.indexed_at,
  };
}

/** A chunks row (joined with its file) as the catalog types have it. */
export function toChunkRow(r: RawChunk): ChunkRow {
  return {
    rowId: r.id, chunkId: r.chunk_key, path: r.path, language: r.language as Language, kind: r.kind as ChunkKind,
    symbol: r.symbol, parent: r.parent, signature: r.signature, startLine: r.start_line, endLine: r.end_line,
    ...(r.part_index !== null && r.part_count !== null ? { part: { index: r.part_index, count: r.part_count } } : {}),
    hash: r.text_hash, text: r.text,
  };
}

/** Chunks of a namespace by row id, in the order asked; ids of other namespaces or gone rows are left out. */
export async function chunksByRowIds(sql: Sql, namespaceId: number, rowIds: readonly number[]): Promise<ChunkRow[]> {
  if (rowIds.length === 0) return [];
  const rows = await sql.rows<RawChunk>(`${CHUNK_SELECT} AND c.id = ANY($2::bigint[])`, [namespaceId, [...rowIds]]);
  const byId = new Map(rows.map((r) => [r.id, toChunkRow(r)]));
  return rowIds.flatMap((id) => byId.get(id) ?? []);
}

/** Path of each of the given chunk rows of a namespace. */
export async function pathsOfRows(sql: Sql, namespaceId: number, rowIds: readonly number[]): Promise<Map<number, string>> {
  if (rowIds.length === 0) return new Map();
  const rows = await sql.rows<{ id: number; path: string }>(
    'SELECT c.id, f.path FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.namespace_id = $1 AND c.id = ANY($2::bigint[])',
    [namespaceId, [...rowIds]],
  );
  return new Map(rows.map((r) => [r.id, r.path]));
}

/** Chunks of a namespace holding each word (folded like stored tokens), keyed by the word as given. */
export async function countDocuments(sql: Sql, namespaceId: number, words: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const distinct = [...new Set(words)];
  if (distinct.length === 0) return out;
  const rows = await sql.rows<{ word: string; n: number }>(
    `SELECT w.word, (SELECT count(*) FROM chunks c WHERE c.namespace_id = $1 AND c.terms @@ w.query::tsquery) AS n
     FROM unnest($2::text[], $3::text[]) AS w(word, query)`,
    [namespaceId, distinct, distinct.map((w) => quoteLexeme(foldToken(w)))],
  );
  for (const r of rows) out.set(r.word, r.n);
  return out;
}

/**
 * Kinds that are not definitions, as the SQLite catalog's term-stats.ts decides: methods count only with
 * `includeMethods` or when their name is compound (camelCase hump or inner `_`, not `__dunder`).
 */
function definitionFilter(includeMethods: boolean): string {
  const kinds = "c.kind NOT IN ('module', 'text', 'section')";
  if (includeMethods) return kinds;
  const compound = "(c.symbol ~ '[a-z0-9][A-Z]' OR (c.symbol ~ '[a-zA-Z0-9]_[a-zA-Z0-9]' AND c.symbol NOT LIKE '\\_\\_%'))";
  return `${kinds} AND (c.kind <> 'method' OR ${compound})`;
}

/** Row ids of definitions named one of `names` in a namespace, at most `limit`. */
export async function symbolRowIds(sql: Sql, namespaceId: number, names: readonly string[], limit: number, includeMethods: boolean): Promise<number[]> {
  if (names.length === 0) return [];
  const rows = await sql.rows<{ id: number }>(
    `SELECT c.id FROM chunks c WHERE c.namespace_id = $1 AND c.symbol = ANY($2::text[]) AND ${definitionFilter(includeMethods)} ORDER BY c.id LIMIT $3`,
    [namespaceId, [...names], limit],
  );
  return rows.map((r) => r.id);
}

/** Where top-level definitions named one of `names` live in a namespace: symbol -> paths, from at most `limit` rows. */
export async function symbolPaths(sql: Sql, namespaceId: number, names: readonly string[], limit: number): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (names.length === 0) return out;
  const rows = await sql.rows<{ symbol: string; path: string }>(
    `SELECT c.symbol, f.path FROM chunks c JOIN files f ON f.id = c.file_id
     WHERE c.namespace_id = $1 AND c.symbol = ANY($2::text[]) AND ${definitionFilter(false)} ORDER BY c.id LIMIT $3`,
    [namespaceId, [...names], limit],
  );
  for (const r of rows) {
    const paths = out.get(r.symbol) ?? [];
    if (!paths.includes(r.path)) paths.push(r.path);
    out.set(r.symbol, paths);
  }
  return out;
}
