import type Database from 'better-sqlite3';
import { blobToVector } from './vector-codec.js';

/**
 * How far a cached vector's length may be from 1. Embedders return L2-normalised vectors (the Embedder port's
 * contract) and float32 rounding moves the length by about 1e-7, so anything further off was damaged on disk.
 */
export const UNIT_LENGTH_TOLERANCE = 1e-3;

/** Cache rows read per batch while scanning the whole embedding cache. */
const SCAN_BATCH_ROWS = 1000;

/** True when `vector` has `dimension` components (when given), all finite, and unit length within tolerance. */
export function isSoundVector(vector: Float32Array, dimension?: number): boolean {
  if (dimension !== undefined && dimension > 0 && vector.length !== dimension) return false;
  let squares = 0;
  for (let i = 0; i < vector.length; i++) {
    const x = vector[i]!;
    if (!Number.isFinite(x)) return false;
    squares += x * x;
  }
  return Math.abs(Math.sqrt(squares) - 1) <= UNIT_LENGTH_TOLERANCE;
}

/** Row ids (of the embeddings table) of every cached vector that is not sound, scanned in batches. */
export function unsoundVectorRows(db: Database.Database, dimension: number): number[] {
  const select = db.prepare(`SELECT rowid AS id, vector FROM embeddings WHERE rowid > ? ORDER BY rowid LIMIT ${SCAN_BATCH_ROWS}`);
  const unsound: number[] = [];
  let after = 0;
  for (;;) {
    const rows = select.all(after) as Array<{ id: number; vector: Buffer }>;
    for (const row of rows) {
      const vector = blobToVector(row.vector);
      if (vector === null || !isSoundVector(vector, dimension)) unsound.push(row.id);
    }
    const last = rows.at(-1);
    if (last === undefined || rows.length < SCAN_BATCH_ROWS) return unsound;
    after = last.id;
  }
}

/** Deletes the given rows of the embeddings table in one transaction; returns how many went. */
export function deleteVectorRows(db: Database.Database, rowIds: readonly number[]): number {
  if (rowIds.length === 0) return 0;
  return db.prepare('DELETE FROM embeddings WHERE rowid IN (SELECT value FROM json_each(?))').run(JSON.stringify(rowIds)).changes;
}
