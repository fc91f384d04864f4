import type Database from 'better-sqlite3';
import { vectorToBlob } from './vector-codec.js';

/**
 * Texts written to the catalog before their vectors: a file is searchable by words as soon as it is chunked,
 * and the embedder fills in behind. One row per distinct text (by hash), removed when its vector is cached.
 * The queue lives in the catalog, so an interrupted build resumes where it stopped and memory stays bounded.
 */
export const PENDING_TEXTS_DDL = `CREATE TABLE IF NOT EXISTS pending_texts (
  text_hash  TEXT PRIMARY KEY,
  embed_text TEXT NOT NULL,
  queued_at  INTEGER NOT NULL
)`;

/** True when the catalog has the queue (a catalog written before it existed, opened read-only, has not). */
export function hasPendingTable(db: Database.Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'pending_texts'").get() !== undefined;
}

/** Queues texts whose vectors are not cached (inside the caller's transaction); a text already queued stays. */
export function queueTexts(db: Database.Database, texts: ReadonlyMap<string, string>, now: number): void {
  if (texts.size === 0) return;
  const insert = db.prepare('INSERT OR IGNORE INTO pending_texts (text_hash, embed_text, queued_at) VALUES (?, ?, ?)');
  for (const [hash, text] of texts) insert.run(hash, text, now);
}

/** Up to `limit` queued texts some live chunk still uses, oldest first. */
export function nextPendingTexts(db: Database.Database, limit: number): Array<{ hash: string; embedText: string }> {
  return db
    .prepare(
      `SELECT p.text_hash AS hash, p.embed_text AS embedText FROM pending_texts p
       WHERE EXISTS (SELECT 1 FROM chunks c WHERE c.text_hash = p.text_hash)
       ORDER BY p.queued_at, p.rowid LIMIT ?`,
    )
    .all(limit) as Array<{ hash: string; embedText: string }>;
}

/**
 * Caches the vectors of queued texts and takes them off the queue, in one transaction; returns the live chunk
 * rows that use those texts (for the vector index).
 */
export function storePendingVectors(
  db: Database.Database,
  vectors: ReadonlyMap<string, Float32Array>,
  revision: string,
  now: number,
): Array<{ rowId: number; hash: string }> {
  const upsert = db.prepare(
    `INSERT INTO embeddings (text_hash, revision, vector, used_at) VALUES (?, ?, ?, ?)
     ON CONFLICT(text_hash, revision) DO UPDATE SET vector = excluded.vector, used_at = excluded.used_at`,
  );
  const dequeue = db.prepare('DELETE FROM pending_texts WHERE text_hash = ?');
  for (const [hash, vector] of vectors) {
    upsert.run(hash, revision, vectorToBlob(vector), now);
    dequeue.run(hash);
  }
  return db
    .prepare('SELECT id AS rowId, text_hash AS hash FROM chunks WHERE text_hash IN (SELECT value FROM json_each(?)) ORDER BY id')
    .all(JSON.stringify([...vectors.keys()])) as Array<{ rowId: number; hash: string }>;
}

/** Drops queued texts no live chunk uses any more (their files changed or went away). */
export function dropUnusedPendingTexts(db: Database.Database): number {
  return db.prepare('DELETE FROM pending_texts WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.text_hash = pending_texts.text_hash)').run().changes;
}

/** Live chunks waiting for their text's vector. */
export function pendingChunkCount(db: Database.Database): number {
  // The usual case, an index with nothing waiting, costs one row look-up instead of a scan of every chunk.
  if (db.prepare('SELECT 1 FROM pending_texts LIMIT 1').get() === undefined) return 0;
  return db.prepare('SELECT count(*) FROM chunks c WHERE EXISTS (SELECT 1 FROM pending_texts p WHERE p.text_hash = c.text_hash)').pluck().get() as number;
}
