import type { Sql } from './connection.js';
import { parseVector } from './vector-search.js';

/** Rows read per batch when streaming every vector. */
const VECTOR_BATCH_ROWS = 1000;

type RowVector = { rowId: number; vector: Float32Array };
type RowHash = { rowId: number; hash: string };

/** Every live chunk of a namespace with a cached vector under `revision`, in row id order, read in batches. */
export async function* namespaceVectors(sql: Sql, namespaceId: number, revision: string): AsyncGenerator<RowVector> {
  let after = 0;
  for (;;) {
    const rows = await sql.rows<{ id: number; vector: string }>(
      `SELECT c.id, e.vector::text AS vector FROM chunks c JOIN embeddings e ON e.text_hash = c.text_hash AND e.revision = $2
       WHERE c.namespace_id = $1 AND c.id > $3 ORDER BY c.id LIMIT ${VECTOR_BATCH_ROWS}`, [namespaceId, revision, after],
    );
    for (const row of rows) yield { rowId: row.id, vector: parseVector(row.vector) };
    const last = rows.at(-1);
    if (last === undefined || rows.length < VECTOR_BATCH_ROWS) return;
    after = last.id;
  }
}

/** Cached vectors of the given live chunk rows of a namespace under `revision`. */
export async function rowVectors(sql: Sql, namespaceId: number, rowIds: readonly number[], revision: string): Promise<RowVector[]> {
  if (rowIds.length === 0) return [];
  const rows = await sql.rows<{ id: number; vector: string }>(
    `SELECT c.id, e.vector::text AS vector FROM chunks c JOIN embeddings e ON e.text_hash = c.text_hash AND e.revision = $2
     WHERE c.namespace_id = $1 AND c.id = ANY($3::bigint[]) ORDER BY c.id`, [namespaceId, revision, [...rowIds]],
  );
  return rows.map((r) => ({ rowId: r.id, vector: parseVector(r.vector) }));
}

/** Live chunks of a namespace with neither a cached vector under `revision` nor a queued text. */
export function chunksWithoutVectors(sql: Sql, namespaceId: number, revision: string): Promise<RowHash[]> {
  return sql.rows<RowHash>(
    `SELECT c.id AS "rowId", c.text_hash AS hash FROM chunks c WHERE c.namespace_id = $1
       AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.text_hash = c.text_hash AND e.revision = $2)
       AND NOT EXISTS (SELECT 1 FROM pending_texts p WHERE p.text_hash = c.text_hash) ORDER BY c.id`, [namespaceId, revision],
  );
}

/** Up to `limit` queued texts some live chunk of the namespace uses, oldest first. */
export function queuedTexts(sql: Sql, namespaceId: number, limit: number): Promise<Array<{ hash: string; embedText: string }>> {
  return sql.rows<{ hash: string; embedText: string }>(
    `SELECT p.text_hash AS hash, p.embed_text AS "embedText" FROM pending_texts p
     WHERE EXISTS (SELECT 1 FROM chunks c WHERE c.namespace_id = $1 AND c.text_hash = p.text_hash)
     ORDER BY p.queued_at, p.seq LIMIT $2`, [namespaceId, limit],
  );
}

/** Row ids of the namespace's live chunks whose text is queued for the embedder. */
export async function waitingRows(sql: Sql, namespaceId: number): Promise<number[]> {
  return (await sql.rows<{ id: number }>(
    'SELECT c.id FROM chunks c WHERE c.namespace_id = $1 AND EXISTS (SELECT 1 FROM pending_texts p WHERE p.text_hash = c.text_hash) ORDER BY c.id', [namespaceId],
  )).map((r) => r.id);
}
