import { readFileSync, truncateSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../../src/store/catalog.js';
import { createDebouncedSaver } from '../../../src/store/debounced-saver.js';
import { openVectorStore, reconcileVectorStore } from '../../../src/store/open-vector-store.js';
import { chunk, fileInput, makeTempDirs, vectorFor } from './store-helpers.js';

const tmp = makeTempDirs();
const open: Catalog[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
  tmp.cleanup();
});

function seededIndex(files = 5, chunksPerFile = 4): { dir: string; catalog: Catalog } {
  const dir = tmp.make();
  const catalog = Catalog.open(dir);
  open.push(catalog);
  catalog.initManifest({ model: 'm', dimension: 4, revision: 'rev1', root: '/r' });
  for (let f = 0; f < files; f++) {
    const chunks = Array.from({ length: chunksPerFile }, (_, c) => chunk(`f${f}c${c}`, `body ${f} ${c}`, c * 10 + 1));
    catalog.replaceFile(fileInput(`src/f${f}.ts`, chunks));
  }
  return { dir, catalog };
}

/** Resolves once `predicate` holds; rejects after `timeoutMs`. */
function waitFor(predicate: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      if (predicate()) resolve();
      else if (Date.now() > deadline) reject(new Error(`condition not met within ${timeoutMs} ms`));
      else return;
      clearInterval(poll);
    }, 5);
  });
}

const options = (dir: string, catalog: Catalog) => ({ indexDir: dir, catalog, revision: 'rev1', dimension: 4 });

describe('openVectorStore', () => {
  it('rebuilds from cached vectors when there is no saved graph', () => {
    const { dir, catalog } = seededIndex();
    const opened = openVectorStore(options(dir, catalog));
    expect(opened).toMatchObject({ rebuilt: true, reconciled: { added: 20, removed: 0 }, missingVectors: 0 });
    expect(opened.rebuildReason).toContain('vectors.json');
    expect(opened.store.size).toBe(20);
    expect(opened.store.generation).toBe(5);
    expect(opened.store.isDirty).toBe(true);
    const [hit] = opened.store.query(vectorFor('hash:f2c1:body 2 1'), { k: 1 });
    expect(hit?.rowId).toBe(10);
  });

  it('loads a saved graph in sync without changes', async () => {
    const { dir, catalog } = seededIndex();
    await openVectorStore(options(dir, catalog)).store.save();
    const opened = openVectorStore(options(dir, catalog));
    expect(opened).toMatchObject({ rebuilt: false, reconciled: { added: 0, removed: 0 }, missingVectors: 0 });
    expect(opened.store.isDirty).toBe(false);
  });

  it('reconciles a graph saved before later catalog writes, without a rebuild', async () => {
    const { dir, catalog } = seededIndex(10);
    const first = openVectorStore(options(dir, catalog));
    await first.store.save();
    const savedGeneration = JSON.parse(readFileSync(join(dir, 'vectors.json'), 'utf8')).generation;

    catalog.replaceFile(fileInput('src/f0.ts', [
      chunk('f0c0', 'body 0 0', 1), chunk('f0c1', 'CHANGED', 11), chunk('f0c2', 'body 0 2', 21), chunk('f0c3', 'body 0 3', 31),
    ]));
    catalog.removeFiles(['src/f9.ts']);
    expect(catalog.generation()).toBe(savedGeneration + 2);

    const opened = openVectorStore(options(dir, catalog));
    expect(opened).toMatchObject({ rebuilt: false, reconciled: { added: 1, removed: 5 }, missingVectors: 0 });
    expect(opened.store.size).toBe(36);
    expect(opened.store.generation).toBe(catalog.generation());
    expect(opened.store.has(41)).toBe(true);
    expect(opened.store.has(2)).toBe(false);
    expect(opened.store.query(vectorFor('hash:f0c1:CHANGED'), { k: 1 })[0]?.rowId).toBe(41);
  });

  it('reconcileVectorStore catches up with writes made through another connection', async () => {
    const { dir, catalog } = seededIndex(3);
    const { store } = openVectorStore(options(dir, catalog));
    await store.save();
    expect(store.bytesOnDisk()).toBe(statSync(join(dir, 'vectors.hnsw')).size + statSync(join(dir, 'vectors.json')).size);
    const writer = Catalog.open(dir);
    writer.replaceFile(fileInput('src/new.ts', [chunk('fresh', 'fresh()', 1)]));
    writer.removeFiles(['src/f1.ts']);
    writer.close();
    expect(reconcileVectorStore(store, options(dir, catalog))).toEqual({ reconciled: { added: 1, removed: 4 }, missingVectors: 0 });
    expect([store.size, store.generation, store.isDirty]).toEqual([9, 5, true]);
  });

  it('rebuilds when the saved graph is truncated', async () => {
    const { dir, catalog } = seededIndex();
    await openVectorStore(options(dir, catalog)).store.save();
    const graph = join(dir, 'vectors.hnsw');
    truncateSync(graph, Math.floor(statSync(graph).size / 2));
    const opened = openVectorStore(options(dir, catalog));
    expect(opened).toMatchObject({ rebuilt: true, reconciled: { added: 20, removed: 0 } });
    expect(opened.rebuildReason).toMatch(/vectors\.hnsw: is \d+ bytes/);
  });

  it('rebuilds (compacts) when too many vectors were deleted since the save', async () => {
    const { dir, catalog } = seededIndex(5);
    await openVectorStore(options(dir, catalog)).store.save();
    catalog.removeFiles(['src/f0.ts', 'src/f1.ts']);
    const opened = openVectorStore(options(dir, catalog));
    expect(opened).toMatchObject({ rebuilt: true, reconciled: { added: 12, removed: 0 } });
    expect(opened.rebuildReason).toBe('8 of 20 vectors are deleted; compacting');
    expect(opened.store.deletedCount).toBe(0);
  });

  it('reports live chunks that have no cached vector', () => {
    const { dir, catalog } = seededIndex(1, 2);
    catalog.replaceFile(fileInput('src/novec.ts', [chunk('x', 'x', 1)], { withVectors: false }));
    expect(openVectorStore(options(dir, catalog))).toMatchObject({ rebuilt: true, missingVectors: 1 });
  });
});

describe('createDebouncedSaver', () => {
  it('saves once after the delay however often it is scheduled, and flush saves now', async () => {
    const { dir, catalog } = seededIndex(1, 2);
    const { store } = openVectorStore(options(dir, catalog));
    let saves = 0;
    const errors: unknown[] = [];
    const saver = createDebouncedSaver(store, {
      delayMs: 20,
      beforeSave: () => { saves++; store.setGeneration(catalog.generation()); },
      onError: (error) => errors.push(error),
    });
    for (let i = 0; i < 5; i++) saver.schedule();
    await waitFor(() => !store.isDirty, 5000);
    expect(saves).toBe(1);
    store.remove([1]);
    saver.schedule();
    await saver.flush();
    expect([saves, store.isDirty, errors.length]).toEqual([2, false, 0]);
    expect(JSON.parse(readFileSync(join(dir, 'vectors.json'), 'utf8')).deletedRowIds).toEqual([1]);
  });
});
