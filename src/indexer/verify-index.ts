import type { ModelSpec } from '../embed/models.js';
import type { Catalog } from '../store/catalog.js';
import type { HnswStore } from '../store/hnsw-store.js';
import { SCHEMA_VERSION } from '../store/schema.js';

/** What verification reads: the catalog, the (reconciled) vector store, the configured model and revision. */
export interface VerifyInput {
  readonly catalog: Catalog;
  readonly vectors: HnswStore;
  readonly model: ModelSpec;
  readonly revision: string;
}

/**
 * Checks an index end to end: not reset after damage, SQLite integrity and foreign keys, FTS (its own check and one row per chunk),
 * a cached vector for every chunk, the manifest (model, dimension, schema version, generation), vector-store
 * labels equal to chunk rows, and every stored vector equal to the chunk's cached one. Returns one line per
 * problem (empty = healthy).
 */
export function verifyIndex({ catalog, vectors, model, revision }: VerifyInput): string[] {
  const problems = catalog.integrityCheck();
  const reset = catalog.resetReason();
  // An index emptied after damage is consistent but not whole: it must not pass until a full pass rebuilt it.
  if (reset !== null) problems.unshift(`index: reset and not yet rebuilt: ${reset}`);
  const manifest = catalog.getManifest();
  const live = catalog.liveRowIds();
  if (live.length > 0 && !manifest) problems.push('manifest: chunks exist but no model is recorded');
  if (manifest) {
    if (manifest.model !== model.id) problems.push(`manifest: model ${manifest.model} differs from ${model.id}`);
    if (manifest.dimension !== model.dimension) problems.push(`manifest: dimension ${manifest.dimension} differs from the model's ${model.dimension}`);
    if (manifest.schemaVersion !== SCHEMA_VERSION) problems.push(`manifest: schema version ${manifest.schemaVersion}, expected ${SCHEMA_VERSION}`);
  }
  if (vectors.generation > catalog.generation()) {
    problems.push(`vectors: reflect generation ${vectors.generation}, newer than the catalog's ${catalog.generation()}`);
  }
  const labels = new Set(vectors.rowIds());
  // Chunks queued for the embedder have no vector yet by design (a build in progress or interrupted): not damage.
  const waiting = new Set(catalog.waitingRowIds());
  const missing = live.filter((id) => !labels.has(id) && !waiting.has(id));
  const liveSet = new Set(live);
  const extra = [...labels].filter((id) => !liveSet.has(id));
  if (missing.length > 0) problems.push(`vectors: ${missing.length} chunks have no vector in the HNSW index`);
  if (extra.length > 0) problems.push(`vectors: ${extra.length} HNSW labels have no chunk`);
  const differing = rowsUnlikeGraph({ catalog, vectors, revision, rowIds: live.filter((id) => labels.has(id)) }).length;
  if (differing > 0) problems.push(`vectors: ${differing} HNSW vectors differ from their chunk's cached embedding`);
  return problems;
}

/**
 * Chunk rows whose vector in the graph is missing or not (up to float rounding) the catalog's cached vector, which
 * hnswlib normalised. Rows without a cached vector are left out.
 */
export function rowsUnlikeGraph(o: { catalog: Catalog; vectors: HnswStore; revision: string; rowIds: readonly number[] }): number[] {
  const batch = 1000;
  const differing: number[] = [];
  for (let i = 0; i < o.rowIds.length; i += batch) {
    for (const { rowId, vector } of o.catalog.vectorsForRows(o.rowIds.slice(i, i + batch), o.revision)) {
      const stored = o.vectors.vectorOf(rowId);
      if (stored === null || stored.length !== vector.length || !(cosineOf(stored, vector) >= 0.999)) differing.push(rowId);
    }
  }
  return differing;
}

function cosineOf(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? (na === nb ? 1 : 0) : dot / Math.sqrt(na * nb);
}
