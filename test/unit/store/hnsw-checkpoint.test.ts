import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openIndex } from '../../../src/index.js';
import { Catalog } from '../../../src/store/catalog.js';
import { hnswPaths } from '../../../src/store/hnsw-file.js';
import { HnswStore } from '../../../src/store/hnsw-store.js';
import { HnswVectorStore } from '../../../src/store/hnsw-vector-store.js';
import { openVectorStore } from '../../../src/store/open-vector-store.js';
import { createTempTree, SMALL_REPO } from '../../helpers/fixture-tree.js';
import { chunk, DIMS, fileInput, IDENTITY, REVISION, unit } from '../../support/postgres-fixtures.js';

const dirs: string[] = [];
const catalogs: Catalog[] = [];
afterEach(() => {
  for (const c of catalogs.splice(0)) c.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A catalog with `files` one-chunk files and their vectors in a graph, as a build leaves them mid-way (unsaved). */
function buildInProgress(files: number): { indexDir: string; catalog: Catalog; graph: HnswStore } {
  const indexDir = mkdtempSync(join(tmpdir(), 'codescout-checkpoint-'));
  dirs.push(indexDir);
  const catalog = Catalog.open(indexDir);
  catalogs.push(catalog);
  catalog.initManifest({ ...IDENTITY, root: '/src/checkpoint' });
  const graph = HnswStore.create({ indexDir, dimension: DIMS });
  for (let i = 0; i < files; i++) addFile(catalog, graph, i);
  return { indexDir, catalog, graph };
}

function addFile(catalog: Catalog, graph: HnswStore, i: number): void {
  const input = fileInput(`src/unit${i}.ts`, [{ chunk: chunk(`unit${i}`, `export const unit${i} = ${i};`), vector: unit(1, i + 1, (i * 7) % 5, 1) }]);
  const { added } = catalog.replaceFile(input);
  graph.upsert(added.map((a) => ({ rowId: a.rowId, vector: input.vectors.get(a.hash)! })));
}

function writer(o: { indexDir: string; catalog: Catalog; graph: HnswStore }, checkpointMs: number): HnswVectorStore {
  return new HnswVectorStore({ ...o, revision: REVISION, lockWaitMs: 0, readonly: false, checkpointMs });
}

describe('HnswVectorStore.checkpoint (a build saves its graph on the way)', () => {
  it('saves the graph once the pause has passed, so another reader loads it and adds only what came since', async () => {
    const build = buildInProgress(20);
    const store = writer(build, 0);
    expect(existsSync(hnswPaths(build.indexDir).graph)).toBe(false);
    await store.checkpoint();
    expect(existsSync(hnswPaths(build.indexDir).graph)).toBe(true);
    expect(build.graph.isDirty).toBe(false);

    addFile(build.catalog, build.graph, 20); // embedded after the save
    const reader = openVectorStore({ indexDir: build.indexDir, catalog: build.catalog, revision: REVISION, dimension: DIMS });
    expect(reader.rebuilt).toBe(false);
    expect(reader.reconciled).toEqual({ added: 1, removed: 0 });
    expect(reader.store.size).toBe(21);
    expect(reader.store.generation).toBe(build.catalog.generation());
  });

  it('does not save before the pause has passed, and a reader then rebuilds from the cached vectors', async () => {
    const build = buildInProgress(5);
    const store = writer(build, 60_000);
    await store.checkpoint();
    expect(existsSync(hnswPaths(build.indexDir).graph)).toBe(false);
    const reader = openVectorStore({ indexDir: build.indexDir, catalog: build.catalog, revision: REVISION, dimension: DIMS });
    expect(reader.rebuilt).toBe(true);
    expect(reader.store.size).toBe(5);
  });

  it('a read-only store never saves', async () => {
    const build = buildInProgress(3);
    const store = new HnswVectorStore({ ...build, revision: REVISION, lockWaitMs: 0, readonly: true, checkpointMs: 0 });
    await store.checkpoint();
    expect(existsSync(hnswPaths(build.indexDir).graph)).toBe(false);
  });
});

describe('a build offers a checkpoint after each batch of vectors', () => {
  it('update() of a new index calls checkpoint while it embeds (real model, real files)', async () => {
    const tree = await createTempTree(SMALL_REPO);
    const spy = vi.spyOn(HnswVectorStore.prototype, 'checkpoint');
    try {
      const index = await openIndex({ root: tree.root, cacheDir: tree.cacheDir, offline: true });
      try {
        const report = await index.update();
        expect(report.embedded).toBeGreaterThan(0);
        expect(spy).toHaveBeenCalled();
      } finally {
        await index.close();
      }
    } finally {
      spy.mockRestore();
      await tree.dispose();
    }
  });
});
