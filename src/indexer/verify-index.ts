import type { ModelSpec } from '../embed/models.js';
import type { AsyncCatalog } from '../store/catalog-port.js';
import type { VectorStore } from '../store/vector-store.js';

/** What verification reads: the catalog, the vector store, and the configured model. */
export interface VerifyInput {
  readonly catalog: AsyncCatalog;
  readonly vectors: VectorStore;
  readonly model: ModelSpec;
}

/**
 * Checks an index end to end: not reset after damage, the store's own integrity checks (for SQLite: integrity, foreign
 * keys, FTS), a cached vector for every chunk, the manifest (model, dimension, schema version), then the vector
 * store against the catalog. Returns one line per problem (empty = healthy).
 */
export async function verifyIndex({ catalog, vectors, model }: VerifyInput): Promise<string[]> {
  const problems = await catalog.integrityCheck();
  const reset = await catalog.resetReason();
  // An index emptied after damage is consistent but not whole: it must not pass until a full pass rebuilt it.
  if (reset !== null) problems.unshift(`index: reset and not yet rebuilt: ${reset}`);
  const manifest = await catalog.getManifest();
  if (!manifest && (await catalog.chunkCount()) > 0) problems.push('manifest: chunks exist but no model is recorded');
  if (manifest) {
    if (manifest.model !== model.id) problems.push(`manifest: model ${manifest.model} differs from ${model.id}`);
    if (manifest.dimension !== model.dimension) problems.push(`manifest: dimension ${manifest.dimension} differs from the model's ${model.dimension}`);
    if (manifest.schemaVersion !== catalog.schemaVersion) problems.push(`manifest: schema version ${manifest.schemaVersion}, expected ${catalog.schemaVersion}`);
  }
  problems.push(...(await vectors.verify()));
  return problems;
}
