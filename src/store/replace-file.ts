import type Database from 'better-sqlite3';
import type { ChunkInput, ReplaceFileInput, ReplaceFileResult } from './catalog-types.js';
import { queueTexts } from './pending-texts.js';
import { vectorToBlob } from './vector-codec.js';

interface OldChunk {
  id: number;
  chunk_key: string;
  kind: string;
  symbol: string;
  parent: string | null;
  signature: string;
  start_line: number;
  end_line: number;
  part_index: number | null;
  part_count: number | null;
  text_hash: string;
  text: string;
}

/** Identity of a chunk's content: equal keys and equal text mean the same vector and the same FTS row. */
function contentKey(c: { hash: string; kind: string; symbol: string; parent: string | null; signature: string }): string {
  return JSON.stringify([c.hash, c.kind, c.symbol, c.parent, c.signature]);
}

/**
 * The body of `Catalog.replaceFile`; runs inside the caller's transaction. An old chunk whose content
 * (hash, kind, symbol, parent, signature, text) reappears keeps its row id, so its HNSW entry and FTS row
 * stay; only its position columns are updated. Everything else is deleted or inserted. Bumps the generation when
 * chunks or the file's content hash changed.
 */
export function replaceFileRows(db: Database.Database, input: ReplaceFileInput, now: number): ReplaceFileResult {
  const before = db.prepare('SELECT content_hash FROM files WHERE path = ?').pluck().get(input.path) as string | undefined;
  const fileId = upsertFile(db, input, now);
  const oldRows = db
    .prepare(
      `SELECT id, chunk_key, kind, symbol, parent, signature, start_line, end_line, part_index, part_count,
              text_hash, text FROM chunks WHERE file_id = ? ORDER BY id`,
    )
    .all(fileId) as OldChunk[];

  const pool = new Map<string, OldChunk[]>();
  for (const row of oldRows) {
    const key = contentKey({ ...row, hash: row.text_hash });
    pool.set(key, [...(pool.get(key) ?? []), row]);
  }

  const updatePosition = db.prepare(
    `UPDATE chunks SET chunk_key = ?, start_line = ?, end_line = ?, part_index = ?, part_count = ? WHERE id = ?`,
  );
  const insertChunk = db.prepare(
    `INSERT INTO chunks (file_id, chunk_key, kind, symbol, parent, signature, start_line, end_line,
                         part_index, part_count, text_hash, text)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertFts = db.prepare('INSERT INTO chunks_fts (rowid, terms, path, symbol) VALUES (?, ?, ?, ?)');

  const added: Array<{ rowId: number; hash: string }> = [];
  let keptCount = 0;
  let moved = 0;
  for (const chunk of input.chunks) {
    const candidates = pool.get(contentKey(chunk));
    const index = candidates?.findIndex((row) => row.text === chunk.text) ?? -1;
    const old = index >= 0 ? candidates?.splice(index, 1)[0] : undefined;
    if (old !== undefined) {
      keptCount++;
      if (positionChanged(old, chunk)) {
        moved++;
        updatePosition.run(chunk.id, chunk.startLine, chunk.endLine, chunk.part?.index ?? null, chunk.part?.count ?? null, old.id);
      }
      continue;
    }
    const info = insertChunk.run(
      fileId, chunk.id, chunk.kind, chunk.symbol, chunk.parent, chunk.signature, chunk.startLine, chunk.endLine,
      chunk.part?.index ?? null, chunk.part?.count ?? null, chunk.hash, chunk.text,
    );
    const rowId = Number(info.lastInsertRowid);
    insertFts.run(rowId, `${chunk.text}\n${chunk.lexicalTerms}`, input.path, chunk.symbol);
    added.push({ rowId, hash: chunk.hash });
  }

  const removedRowIds = [...pool.values()].flat().map((row) => row.id);
  deleteChunkRows(db, removedRowIds);
  storeVectors(db, input, now);
  queueTexts(db, input.pending ?? new Map(), now);
  // A new or changed file counts even without chunks: readers that list files (an overlay's shadowed paths) look too.
  if (added.length > 0 || removedRowIds.length > 0 || moved > 0 || before !== input.contentHash) bumpGeneration(db);
  return { removedRowIds, added, keptCount };
}

function positionChanged(old: OldChunk, chunk: ChunkInput): boolean {
  return (
    old.chunk_key !== chunk.id ||
    old.start_line !== chunk.startLine ||
    old.end_line !== chunk.endLine ||
    old.part_index !== (chunk.part?.index ?? null) ||
    old.part_count !== (chunk.part?.count ?? null)
  );
}

function upsertFile(db: Database.Database, input: ReplaceFileInput, now: number): number {
  const row = db
    .prepare(
      `INSERT INTO files (path, size, mtime_ms, content_hash, language, indexed_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms,
         content_hash = excluded.content_hash, language = excluded.language, indexed_at = excluded.indexed_at
       RETURNING id`,
    )
    .get(input.path, input.size, input.mtimeMs, input.contentHash, input.language, now) as { id: number };
  return row.id;
}

function storeVectors(db: Database.Database, input: ReplaceFileInput, now: number): void {
  const upsert = db.prepare(
    `INSERT INTO embeddings (text_hash, revision, vector, used_at) VALUES (?, ?, ?, ?)
     ON CONFLICT(text_hash, revision) DO UPDATE SET vector = excluded.vector, used_at = excluded.used_at`,
  );
  for (const [hash, vector] of input.vectors) upsert.run(hash, input.revision, vectorToBlob(vector), now);
}

/** Deletes chunk rows and their FTS rows; runs inside the caller's transaction. */
export function deleteChunkRows(db: Database.Database, rowIds: readonly number[]): void {
  if (rowIds.length === 0) return;
  const ids = JSON.stringify(rowIds);
  db.prepare('DELETE FROM chunks_fts WHERE rowid IN (SELECT value FROM json_each(?))').run(ids);
  db.prepare('DELETE FROM chunks WHERE id IN (SELECT value FROM json_each(?))').run(ids);
}

/** Increments the manifest's generation; runs inside the caller's transaction. */
export function bumpGeneration(db: Database.Database): void {
  db.prepare("UPDATE manifest SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'").run();
}
