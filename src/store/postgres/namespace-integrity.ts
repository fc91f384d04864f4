import type { Manifest } from '../catalog-types.js';
import type { Sql } from './connection.js';
import { schemaVersion } from './migrate.js';
import { LATEST_SCHEMA_VERSION } from './migrations/index.js';
import { vectorIndexDimensions } from './vector-search.js';

/**
 * The database side of `status --verify` for one namespace: schema version, pgvector present, the HNSW index of the
 * namespace's dimension, chunks whose file is of another namespace, chunks with neither a vector nor a queued text,
 * and cached vectors of the wrong length. Returns one line per problem; empty when sound.
 */
export async function checkNamespace(
  sql: Sql,
  context: { readonly namespaceId: number; readonly label: string; readonly manifest: Manifest | null; readonly connectionString: string },
): Promise<string[]> {
  const problems: string[] = [];
  const version = await schemaVersion(sql);
  if (version !== LATEST_SCHEMA_VERSION) problems.push(`schema version ${version ?? 'none'}, expected ${LATEST_SCHEMA_VERSION}`);
  const [extension] = await sql.rows<{ version: string }>("SELECT extversion AS version FROM pg_extension WHERE extname = 'vector'");
  if (extension === undefined) problems.push('the vector extension (pgvector) is not installed');
  const [crossed] = await sql.rows<{ n: number }>(
    'SELECT count(*) AS n FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.namespace_id = $1 AND f.namespace_id <> c.namespace_id', [context.namespaceId],
  );
  if ((crossed?.n ?? 0) > 0) problems.push(`${crossed!.n} chunks of ${context.label} belong to a file of another namespace`);
  const manifest = context.manifest;
  if (manifest === null) return problems;
  if (!(await vectorIndexDimensions(sql)).includes(manifest.dimension)) problems.push(`no HNSW index for ${manifest.dimension}-dimensional vectors`);
  const [missing] = await sql.rows<{ n: number }>(
    `SELECT count(*) AS n FROM chunks c WHERE c.namespace_id = $1
       AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.text_hash = c.text_hash AND e.revision = $2)
       AND NOT EXISTS (SELECT 1 FROM pending_texts p WHERE p.text_hash = c.text_hash)`, [context.namespaceId, manifest.revision],
  );
  if ((missing?.n ?? 0) > 0) problems.push(`${missing!.n} chunks of ${context.label} have no cached vector and none queued`);
  const [wrong] = await sql.rows<{ n: number }>(
    `SELECT count(*) AS n FROM embeddings e WHERE e.revision = $1 AND e.dims <> $2
       AND EXISTS (SELECT 1 FROM chunks c WHERE c.namespace_id = $3 AND c.text_hash = e.text_hash)`, [manifest.revision, manifest.dimension, context.namespaceId],
  );
  if ((wrong?.n ?? 0) > 0) problems.push(`${wrong!.n} cached vectors used by ${context.label} are not ${manifest.dimension}-dimensional`);
  return problems;
}
