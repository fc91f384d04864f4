import type pg from 'pg';
import { IndexMismatchError } from '../../errors.js';
import type { VectorHit } from '../vector-store.js';
import { sqlOver, toStoreError, type Sql } from './connection.js';

/** HNSW search breadth (pgvector's `hnsw.ef_search`); at least k is used, up to pgvector's limit. */
export const EF_SEARCH = 100;
/** pgvector's largest `hnsw.ef_search`; a larger k is still answered whole by the iterative scan. */
export const MAX_EF_SEARCH = 1000;
/** Most nearest rows (as a multiple of k) read while looking for k that pass a filter. */
const MAX_FILTER_DEPTH = 16;

/** pgvector's text form of a vector, `[0.1,0.2]`: a float32 printed shortest round-trips exactly. */
export function vectorLiteral(vector: Float32Array): string {
  return `[${Array.from(vector).join(',')}]`;
}

/** A vector from pgvector's text form. */
export function parseVector(text: string): Float32Array {
  return Float32Array.from(JSON.parse(text) as number[]);
}

function checkedDimension(dimension: number): number {
  // Interpolated into DDL and casts below: it must be a plain positive integer.
  if (!Number.isInteger(dimension) || dimension <= 0 || dimension > 16_000) throw new RangeError(`bad vector dimension ${dimension}`);
  return dimension;
}

/**
 * Creates the HNSW index (cosine) over the cached vectors of one dimension, if missing: a partial expression index
 * `(vector::vector(dims)) WHERE dims = <dims>`, since the shared cache may hold vectors of several models.
 * Run under the migration lock by the writer that first records a model of that dimension.
 */
export async function ensureVectorIndex(sql: Sql, dimension: number): Promise<void> {
  const dims = checkedDimension(dimension);
  await sql.count(`CREATE INDEX IF NOT EXISTS embeddings_hnsw_${dims} ON embeddings
    USING hnsw ((vector::vector(${dims})) vector_cosine_ops) WHERE dims = ${dims}`);
}

/** Names of the HNSW indexes present, by dimension. */
export async function vectorIndexDimensions(sql: Sql): Promise<number[]> {
  const rows = await sql.rows<{ name: string }>("SELECT indexname AS name FROM pg_indexes WHERE tablename = 'embeddings' AND indexname LIKE 'embeddings_hnsw_%'");
  return rows.map((r) => Number(r.name.slice('embeddings_hnsw_'.length))).filter(Number.isInteger).sort((a, b) => a - b);
}

/** Options of {@link nearestChunks}. */
export interface NearestOptions {
  readonly namespaceId: number;
  readonly dimension: number;
  readonly revision: string;
  readonly k: number;
  /** Keeps only the rows it accepts; nearest rows are fetched in growing pages until k pass. */
  readonly accept?: (rowId: number) => boolean;
  readonly connectionString: string;
}

/**
 * The k chunks of one namespace nearest to `vector` by cosine, nearest first, through the HNSW index with pgvector's
 * iterative scan (relaxed order, re-sorted here), so a namespace filter still yields k rows. Throws
 * IndexMismatchError for a query vector of another dimension.
 */
export async function nearestChunks(pool: pg.Pool, vector: Float32Array, options: NearestOptions): Promise<VectorHit[]> {
  const dims = checkedDimension(options.dimension);
  if (vector.length !== dims) {
    throw new IndexMismatchError(`query vector has ${vector.length} dimensions, the index ${dims}; the index was built by another model`, 'postgres');
  }
  const k = Math.floor(options.k);
  if (k <= 0) return [];
  const distance = `(e.vector::vector(${dims})) <=> $1::vector(${dims})`;
  const query = `WITH near AS MATERIALIZED (
      SELECT c.id AS "rowId", ${distance} AS distance
      FROM embeddings e JOIN chunks c ON c.text_hash = e.text_hash AND c.namespace_id = $2
      WHERE e.dims = ${dims} AND e.revision = $3
      ORDER BY ${distance} LIMIT $4)
    SELECT "rowId", distance FROM near ORDER BY distance, "rowId"`;
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw toStoreError(error, options.connectionString);
  }
  const sql = sqlOver(client, options.connectionString);
  let failed = false;
  try {
    await sql.count('BEGIN READ ONLY');
    await sql.count("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', $1, true)", [String(Math.min(MAX_EF_SEARCH, Math.max(EF_SEARCH, k)))]);
    const literal = vectorLiteral(vector);
    const run = async (limit: number) => (await sql.rows<{ rowId: number; distance: number }>(query, [literal, options.namespaceId, options.revision, limit]))
      .map((r) => ({ rowId: r.rowId, similarity: 1 - Number(r.distance) }));
    let hits: VectorHit[];
    if (options.accept === undefined) hits = await run(k);
    else {
      for (let limit = k * 4; ; limit *= 4) {
        const rows = await run(limit);
        hits = rows.filter((r) => options.accept!(r.rowId)).slice(0, k);
        if (hits.length >= k || rows.length < limit || limit >= k * MAX_FILTER_DEPTH) break;
      }
    }
    await sql.count('COMMIT');
    return hits;
  } catch (error) {
    failed = true;
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    // A client that failed may be broken: the pool drops it instead of handing it out again.
    client.release(failed);
  }
}
