import type { ChunkInput, ReplaceFileInput, ReplaceFileResult } from '../catalog-types.js';
import type { Sql } from './connection.js';
import { chunkTsvector } from './tsvector.js';
import { vectorLiteral } from './vector-search.js';

interface OldChunk {
  id: number; chunk_key: string; kind: string; symbol: string; parent: string | null; signature: string;
  start_line: number; end_line: number; part_index: number | null; part_count: number | null; text_hash: string; text: string;
}

/** Identity of a chunk's content, as the SQLite catalog's replace-file.ts keys it: equal keys and text keep the row. */
function contentKey(c: { hash: string; kind: string; symbol: string; parent: string | null; signature: string }): string {
  return JSON.stringify([c.hash, c.kind, c.symbol, c.parent, c.signature]);
}

function positionChanged(old: OldChunk, chunk: ChunkInput): boolean {
  return old.chunk_key !== chunk.id || old.start_line !== chunk.startLine || old.end_line !== chunk.endLine
    || old.part_index !== (chunk.part?.index ?? null) || old.part_count !== (chunk.part?.count ?? null);
}

/**
 * The body of `PostgresCatalog.replaceFile`, inside the caller's transaction; the same rules as the SQLite catalog:
 * an old chunk whose content reappears keeps its row id (only its position columns change), others are deleted or
 * inserted; new vectors go to the shared cache, texts without one to the queue; the generation moves when chunks or the file's content hash did.
 */
export async function replaceFileRows(sql: Sql, namespaceId: number, input: ReplaceFileInput, now: number): Promise<ReplaceFileResult> {
  const [before] = await sql.rows<{ content_hash: string }>('SELECT content_hash FROM files WHERE namespace_id = $1 AND path = $2', [namespaceId, input.path]);
  const [file] = await sql.rows<{ id: number }>(
    `INSERT INTO files (namespace_id, path, size, mtime_ms, content_hash, language, indexed_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (namespace_id, path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms,
       content_hash = excluded.content_hash, language = excluded.language, indexed_at = excluded.indexed_at
     RETURNING id`,
    [namespaceId, input.path, input.size, input.mtimeMs, input.contentHash, input.language, now],
  );
  const fileId = file!.id;
  const oldRows = await sql.rows<OldChunk>(
    `SELECT id, chunk_key, kind, symbol, parent, signature, start_line, end_line, part_index, part_count, text_hash, text
     FROM chunks WHERE file_id = $1 ORDER BY id`, [fileId],
  );
  const pool = new Map<string, OldChunk[]>();
  for (const row of oldRows) {
    const key = contentKey({ ...row, hash: row.text_hash });
    pool.set(key, [...(pool.get(key) ?? []), row]);
  }
  const moves: Array<{ id: number; chunk: ChunkInput }> = [];
  const inserts: ChunkInput[] = [];
  let keptCount = 0;
  for (const chunk of input.chunks) {
    const candidates = pool.get(contentKey(chunk));
    const index = candidates?.findIndex((row) => row.text === chunk.text) ?? -1;
    const old = index >= 0 ? candidates?.splice(index, 1)[0] : undefined;
    if (old === undefined) inserts.push(chunk);
    else {
      keptCount++;
      if (positionChanged(old, chunk)) moves.push({ id: old.id, chunk });
    }
  }
  const removedRowIds = [...pool.values()].flat().map((row) => row.id);
  if (removedRowIds.length > 0) await sql.count('DELETE FROM chunks WHERE id = ANY($1::bigint[])', [removedRowIds]);
  if (moves.length > 0) await movePositions(sql, moves);
  const added = await insertChunks(sql, { namespaceId, fileId, path: input.path, chunks: inserts });
  await storeVectors(sql, input.vectors, input.revision, now);
  await queueTexts(sql, input.pending ?? new Map(), now);
  // A new or changed file counts even without chunks (a hidden row of a branch namespace), as in the SQLite store.
  if (added.length > 0 || removedRowIds.length > 0 || moves.length > 0 || before?.content_hash !== input.contentHash) await bumpGeneration(sql, namespaceId);
  return { removedRowIds, added, keptCount };
}

async function movePositions(sql: Sql, moves: ReadonlyArray<{ id: number; chunk: ChunkInput }>): Promise<void> {
  await sql.count(
    `UPDATE chunks c SET chunk_key = m.chunk_key, start_line = m.start_line, end_line = m.end_line,
       part_index = m.part_index, part_count = m.part_count
     FROM unnest($1::bigint[], $2::text[], $3::int[], $4::int[], $5::int[], $6::int[])
       AS m(id, chunk_key, start_line, end_line, part_index, part_count)
     WHERE c.id = m.id`,
    [moves.map((m) => m.id), moves.map((m) => m.chunk.id), moves.map((m) => m.chunk.startLine), moves.map((m) => m.chunk.endLine),
      moves.map((m) => m.chunk.part?.index ?? null), moves.map((m) => m.chunk.part?.count ?? null)],
  );
}

async function insertChunks(
  sql: Sql, input: { namespaceId: number; fileId: number; path: string; chunks: readonly ChunkInput[] },
): Promise<Array<{ rowId: number; hash: string }>> {
  if (input.chunks.length === 0) return [];
  const lexical = input.chunks.map((c) => chunkTsvector({ terms: `${c.text}\n${c.lexicalTerms}`, path: input.path, symbol: c.symbol }));
  const column = <T>(pick: (c: ChunkInput) => T): T[] => input.chunks.map(pick);
  return sql.rows<{ rowId: number; hash: string }>(
    `INSERT INTO chunks (namespace_id, file_id, chunk_key, kind, symbol, parent, signature, start_line, end_line,
                         part_index, part_count, text_hash, text, terms, term_count)
     SELECT $1, $2, u.chunk_key, u.kind, u.symbol, u.parent, u.signature, u.start_line, u.end_line,
            u.part_index, u.part_count, u.text_hash, u.text, u.terms::tsvector, u.term_count
     FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::int[], $10::int[], $11::int[],
                 $12::text[], $13::text[], $14::text[], $15::int[]) WITH ORDINALITY
       AS u(chunk_key, kind, symbol, parent, signature, start_line, end_line, part_index, part_count, text_hash, text, terms, term_count, ord)
     ORDER BY u.ord
     RETURNING id AS "rowId", text_hash AS hash`,
    [input.namespaceId, input.fileId, column((c) => c.id), column((c) => c.kind), column((c) => c.symbol), column((c) => c.parent),
      column((c) => c.signature), column((c) => c.startLine), column((c) => c.endLine), column((c) => c.part?.index ?? null),
      column((c) => c.part?.count ?? null), column((c) => c.hash), column((c) => c.text), lexical.map((l) => l.literal),
      lexical.map((l) => l.tokenCount)],
  );
}

/** Upserts vectors into the shared embedding cache (inside the caller's transaction). */
export async function storeVectors(sql: Sql, vectors: ReadonlyMap<string, Float32Array>, revision: string, now: number): Promise<void> {
  if (vectors.size === 0) return;
  // Rows in one order (by hash) for every writer: two namespaces' writers upserting overlapping texts of the shared
  // cache then lock them in the same order and cannot deadlock.
  const entries = [...vectors].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  await sql.count(
    `INSERT INTO embeddings (text_hash, revision, dims, vector, used_at)
     SELECT u.hash, $1, u.dims, u.vector::vector, $2 FROM unnest($3::text[], $4::int[], $5::text[]) AS u(hash, dims, vector)
     ON CONFLICT (text_hash, revision) DO UPDATE SET dims = excluded.dims, vector = excluded.vector, used_at = excluded.used_at`,
    [revision, now, entries.map(([h]) => h), entries.map(([, v]) => v.length), entries.map(([, v]) => vectorLiteral(v))],
  );
}

async function queueTexts(sql: Sql, texts: ReadonlyMap<string, string>, now: number): Promise<void> {
  if (texts.size === 0) return;
  const entries = [...texts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)); // one lock order, as storeVectors
  await sql.count(
    `INSERT INTO pending_texts (text_hash, embed_text, queued_at) SELECT u.hash, u.text, $1 FROM unnest($2::text[], $3::text[]) AS u(hash, text)
     ON CONFLICT (text_hash) DO NOTHING`,
    [now, entries.map(([h]) => h), entries.map(([, t]) => t)],
  );
}

/** Increments a namespace's generation and updatedAt (inside the caller's transaction). */
export async function bumpGeneration(sql: Sql, namespaceId: number): Promise<void> {
  await sql.count('UPDATE namespaces SET generation = generation + 1, updated_at = now() WHERE id = $1', [namespaceId]);
}
