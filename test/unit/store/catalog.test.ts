import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, IndexMismatchError } from '../../../src/errors.js';
import { Catalog } from '../../../src/store/catalog.js';
import { SCHEMA_VERSION } from '../../../src/store/schema.js';
import { chunk, fileInput, makeTempDirs, vectorFor } from './store-helpers.js';

const tmp = makeTempDirs();
const open: Catalog[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
  tmp.cleanup();
});

function newCatalog(dir = tmp.make()): Catalog {
  const catalog = Catalog.open(dir);
  open.push(catalog);
  catalog.initManifest({ model: 'test-model', dimension: 4, revision: 'rev1', root: '/repo' });
  return catalog;
}

describe('Catalog schema and manifest', () => {
  it('creates the schema and keeps the manifest across reopen', () => {
    const dir = join(tmp.make(), 'nested', 'idx');
    const first = Catalog.open(dir);
    expect(first.getManifest()).toBeNull();
    first.initManifest({ model: 'm', dimension: 384, revision: 'abc', root: '/r' });
    first.close();

    const again = Catalog.open(dir, { readonly: true });
    open.push(again);
    const manifest = again.getManifest();
    expect(manifest).toMatchObject({ schemaVersion: SCHEMA_VERSION, model: 'm', dimension: 384, revision: 'abc', root: '/r', generation: 0 });
    expect(Date.parse(manifest!.createdAt)).not.toBeNaN();
    expect(existsSync(join(dir, 'catalog.sqlite'))).toBe(true);
  });

  it('refuses a catalog with another schema version and suggests --rebuild', () => {
    const dir = tmp.make();
    Catalog.open(dir).close();
    const db = new Database(join(dir, 'catalog.sqlite'));
    db.prepare("UPDATE manifest SET value = '99' WHERE key = 'schemaVersion'").run();
    db.close();
    expect(() => Catalog.open(dir)).toThrow(IndexMismatchError);
    expect(() => Catalog.open(dir)).toThrow(/schema version 99.*--rebuild/);
  });

  it('refuses a SQLite file that is not a codescout catalog', () => {
    const dir = tmp.make();
    const db = new Database(join(dir, 'catalog.sqlite'));
    db.exec('CREATE TABLE other (x)');
    db.close();
    expect(() => Catalog.open(dir)).toThrow(IndexMismatchError);
  });

  it('throws ConfigError when opening a missing index readonly, and creates nothing', () => {
    const dir = join(tmp.make(), 'absent');
    expect(() => Catalog.open(dir, { readonly: true })).toThrow(ConfigError);
    expect(existsSync(dir)).toBe(false);
  });

  it('resetManifest forgets the model but keeps the generation', () => {
    const catalog = newCatalog();
    catalog.replaceFile(fileInput('a.ts', [chunk('a', 'a', 1)]));
    catalog.clear();
    catalog.resetManifest();
    expect(catalog.getManifest()).toBeNull();
    expect(catalog.generation()).toBe(2);
    catalog.initManifest({ model: 'new', dimension: 8, revision: 'r2', root: '/r' });
    expect(catalog.getManifest()).toMatchObject({ model: 'new', dimension: 8, generation: 2 });
  });

  it('assertCompatible throws IndexMismatchError for another model or dimension', () => {
    const catalog = newCatalog();
    expect(() => catalog.assertCompatible({ model: 'test-model', dimension: 4, revision: 'rev1' })).not.toThrow();
    expect(() => catalog.assertCompatible({ model: 'other', dimension: 768, revision: 'rev1' })).toThrow(
      /built with test-model \(4d.*embedder is other \(768d.*--rebuild/,
    );
  });
});

describe('Catalog.replaceFile', () => {
  it('inserts chunks and reports every row as added', () => {
    const catalog = newCatalog();
    const result = catalog.replaceFile(fileInput('src/a.ts', [chunk('alpha', 'a()', 1), chunk('beta', 'b()', 5)]));
    expect(result).toEqual({
      removedRowIds: [],
      added: [{ rowId: 1, hash: 'hash:alpha:a()' }, { rowId: 2, hash: 'hash:beta:b()' }],
      keptCount: 0,
    });
    expect(catalog.generation()).toBe(1);
    expect(catalog.getFile('src/a.ts')).toMatchObject({ path: 'src/a.ts', size: 6, mtimeMs: 1000, contentHash: 'content:src/a.ts', language: 'typescript' });
  });

  it('touches only the changed chunk when a file is replaced again', () => {
    const catalog = newCatalog();
    catalog.replaceFile(fileInput('src/a.ts', [chunk('alpha', 'a()', 1), chunk('beta', 'b()', 5), chunk('gamma', 'c()', 9)]));
    const second = catalog.replaceFile(fileInput('src/a.ts', [chunk('alpha', 'a()', 1), chunk('beta', 'b(changed)', 5), chunk('gamma', 'c()', 9)]));
    expect(second).toEqual({ removedRowIds: [2], added: [{ rowId: 4, hash: 'hash:beta:b(changed)' }], keptCount: 2 });
    expect(catalog.liveRowIds()).toEqual([1, 3, 4]);
    expect(catalog.generation()).toBe(2);
  });

  it('keeps rows whose text only moved, updating their lines, and bumps nothing when nothing changed', () => {
    const catalog = newCatalog();
    catalog.replaceFile(fileInput('src/a.ts', [chunk('alpha', 'a()', 1), chunk('beta', 'b()', 5)]));
    const same = catalog.replaceFile(fileInput('src/a.ts', [chunk('alpha', 'a()', 1), chunk('beta', 'b()', 5)]));
    expect(same).toEqual({ removedRowIds: [], added: [], keptCount: 2 });
    expect(catalog.generation()).toBe(1);

    const moved = catalog.replaceFile(fileInput('src/a.ts', [chunk('alpha', 'a()', 3), chunk('beta', 'b()', 7)]));
    expect(moved).toEqual({ removedRowIds: [], added: [], keptCount: 2 });
    expect(catalog.getChunks([2, 1]).map((c) => [c.rowId, c.chunkId, c.startLine, c.endLine])).toEqual([
      [2, 'key:beta:7', 7, 7],
      [1, 'key:alpha:3', 3, 3],
    ]);
    expect(catalog.generation()).toBe(2);
  });

  it('reuses the embedding cache across files and keeps it after the file is removed', () => {
    const catalog = newCatalog();
    const shared = chunk('util', 'shared()', 1);
    catalog.replaceFile(fileInput('src/a.ts', [shared]));
    expect(catalog.cachedVectors([shared.hash, 'unknown'], 'rev1')).toEqual(new Map([[shared.hash, vectorFor(shared.hash)]]));
    expect(catalog.cachedVectors([shared.hash], 'rev2').size).toBe(0);

    catalog.replaceFile(fileInput('src/b.ts', [shared], { withVectors: false }));
    expect(catalog.missingVectors('rev1')).toEqual([]);
    expect(catalog.stats()).toMatchObject({ files: 2, chunks: 2, cachedVectors: 1 });

    expect(catalog.removeFiles(['src/a.ts', 'src/b.ts'])).toEqual([1, 2]);
    expect(catalog.cachedVectors([shared.hash], 'rev1').get(shared.hash)).toEqual(vectorFor(shared.hash));
  });

  it('maps part, parent and language back on getChunks, in the order asked', () => {
    const catalog = newCatalog();
    catalog.replaceFile(fileInput('src/k.ts', [
      chunk('run', 'run() {}', 2, { kind: 'method', parent: 'Runner', part: { index: 1, count: 2 } }),
      chunk('stop', 'stop() {}', 9),
    ]));
    expect(catalog.getChunks([2, 99, 1])).toEqual([
      expect.objectContaining({ rowId: 2, symbol: 'stop', parent: null }),
      {
        rowId: 1, chunkId: 'key:run:2', path: 'src/k.ts', language: 'typescript', kind: 'method', symbol: 'run',
        parent: 'Runner', signature: 'function run()', startLine: 2, endLine: 2, part: { index: 1, count: 2 },
        hash: 'hash:run:run() {}', text: 'run() {}',
      },
    ]);
    expect(catalog.getChunks([2])[0]).not.toHaveProperty('part');
    expect(catalog.getChunkByRowId(1)?.symbol).toBe('run');
    expect(catalog.getChunkByRowId(42)).toBeUndefined();
  });
});

describe('Catalog files, vectors and housekeeping', () => {
  it('removeFiles drops chunks, bumps the generation, and row ids are never reused', () => {
    const catalog = newCatalog();
    catalog.replaceFile(fileInput('a.ts', [chunk('a', 'a', 1), chunk('b', 'b', 2)]));
    catalog.replaceFile(fileInput('b.ts', [chunk('c', 'c', 1)]));
    expect(catalog.removeFiles(['a.ts', 'missing.ts'])).toEqual([1, 2]);
    expect(catalog.generation()).toBe(3);
    expect(catalog.removeFiles(['missing.ts'])).toEqual([]);
    expect(catalog.generation()).toBe(3);
    expect(catalog.listFiles().map((f) => f.path)).toEqual(['b.ts']);
    expect(catalog.getChunks([1, 2])).toEqual([]);
    catalog.replaceFile(fileInput('a.ts', [chunk('a', 'a', 1)]));
    expect(catalog.liveRowIds()).toEqual([3, 4]);
    expect(catalog.maxRowId()).toBe(4);
  });

  it('touchFile records a new size and mtime only', () => {
    const catalog = newCatalog();
    catalog.replaceFile(fileInput('a.ts', [chunk('a', 'a', 1)]));
    catalog.touchFile({ path: 'a.ts', size: 77, mtimeMs: 5000.5 });
    expect(catalog.getFile('a.ts')).toMatchObject({ size: 77, mtimeMs: 5000.5, contentHash: 'content:a.ts' });
    expect(catalog.generation()).toBe(1);
  });

  it('streams all vectors, fetches vectors by row and reports rows without one', () => {
    const catalog = newCatalog();
    catalog.replaceFile(fileInput('a.ts', [chunk('a', 'a', 1), chunk('b', 'b', 2)]));
    catalog.replaceFile(fileInput('b.ts', [chunk('orphan', 'o', 1)], { withVectors: false }));
    expect([...catalog.allVectors('rev1')]).toEqual([
      { rowId: 1, vector: vectorFor('hash:a:a') },
      { rowId: 2, vector: vectorFor('hash:b:b') },
    ]);
    expect(catalog.vectorsForRows([2, 3], 'rev1')).toEqual([{ rowId: 2, vector: vectorFor('hash:b:b') }]);
    expect(catalog.missingVectors('rev1')).toEqual([{ rowId: 3, hash: 'hash:orphan:o' }]);
    expect(catalog.integrityCheck()).toEqual(['1 chunks have no cached vector']);
  });

  it('stores vectors that are views into a larger buffer correctly', () => {
    const catalog = newCatalog();
    // A unit vector (cached vectors are L2-normalised; others are treated as damaged) inside a larger buffer.
    const backing = new Float32Array([9, 9, 0.5, -0.5, 0.5, 0.5, 9]);
    const view = backing.subarray(2, 6);
    const input = fileInput('a.ts', [chunk('a', 'a', 1)]);
    catalog.replaceFile({ ...input, vectors: new Map([['hash:a:a', view]]) });
    expect([...catalog.cachedVectors(['hash:a:a'], 'rev1').get('hash:a:a')!]).toEqual([0.5, -0.5, 0.5, 0.5]);
  });

  it('pruneEmbeddings keeps referenced rows and the most recently used unreferenced ones', () => {
    const catalog = newCatalog();
    catalog.replaceFile(fileInput('live.ts', [chunk('live', 'l', 1)]));
    for (const name of ['old1', 'old2', 'old3']) {
      catalog.replaceFile(fileInput(`${name}.ts`, [chunk(name, name, 1)]));
      catalog.removeFiles([`${name}.ts`]);
    }
    catalog.cachedVectors(['hash:old1:old1'], 'rev1'); // used again: now the most recent
    expect(catalog.pruneEmbeddings({ revision: 'rev1', keepUnreferenced: 1 })).toBe(2);
    const left = catalog.cachedVectors(['hash:live:l', 'hash:old1:old1', 'hash:old2:old2', 'hash:old3:old3'], 'rev1');
    expect([...left.keys()].sort()).toEqual(['hash:live:l', 'hash:old1:old1']);
    expect(catalog.pruneEmbeddings({ revision: 'rev1', keepUnreferenced: 0 })).toBe(1);
  });

  it('clear() empties files and chunks but keeps the cache', () => {
    const catalog = newCatalog();
    catalog.replaceFile(fileInput('a.ts', [chunk('a', 'a', 1)]));
    catalog.clear();
    expect(catalog.stats()).toMatchObject({ files: 0, chunks: 0, cachedVectors: 1 });
    expect(catalog.lexicalSearch('a', { k: 5 })).toEqual([]);
    expect(catalog.integrityCheck()).toEqual([]);
    expect(catalog.generation()).toBe(2);
  });

  it('reports a healthy catalog as healthy, with its size', () => {
    const catalog = newCatalog();
    catalog.replaceFile(fileInput('a.ts', [chunk('a', 'a', 1)]));
    expect(catalog.integrityCheck()).toEqual([]);
    expect(catalog.stats().dbBytes).toBeGreaterThan(4096);
  });
});
