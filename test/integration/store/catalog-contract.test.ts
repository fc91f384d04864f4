import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { IndexMismatchError } from '../../../src/errors.js';
import { Catalog } from '../../../src/store/catalog.js';
import type { AsyncCatalog } from '../../../src/store/catalog-port.js';
import { OverlayCatalog } from '../../../src/store/overlay/overlay-catalog.js';
import { SqliteAsyncCatalog } from '../../../src/store/sqlite-async-catalog.js';
import { chunk, fileInput, hashOf, IDENTITY, openWriter, REVISION, unit } from '../../support/postgres-fixtures.js';
import { isPostgresSkipped, startPostgres, type PostgresServer } from '../../support/postgres-server.js';

/** How a store under test opens a fresh, empty catalog with the test model recorded. */
interface StoreUnderTest {
  readonly name: string;
  readonly skip: boolean;
  start(): Promise<void>;
  open(): Promise<AsyncCatalog>;
  stop(): Promise<void>;
}

function embeddedStore(): StoreUnderTest {
  const dirs: string[] = [];
  return {
    name: 'SQLite (SqliteAsyncCatalog)',
    skip: false,
    async start() {},
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'codescout-contract-'));
      dirs.push(dir);
      const catalog = Catalog.open(dir);
      catalog.initManifest({ ...IDENTITY, root: '/src/contract' });
      return new SqliteAsyncCatalog(catalog);
    },
    async stop() {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A local layer over an empty shared one (src/store/overlay/): with nothing to shadow it must answer as a catalog. */
function overlayStore(): StoreUnderTest {
  const embedded = embeddedStore();
  return {
    name: 'overlay (OverlayCatalog, a local layer over an empty shared one)',
    skip: false,
    start: embedded.start,
    async open() {
      return new OverlayCatalog(await embedded.open(), await embedded.open());
    },
    stop: embedded.stop,
  };
}

function postgresStore(): StoreUnderTest {
  let server: PostgresServer | undefined;
  let repos = 0;
  return {
    name: 'PostgreSQL (PostgresCatalog)',
    skip: isPostgresSkipped,
    async start() {
      server = await startPostgres();
    },
    async open() {
      return openWriter(server!.connectionString, 'main', `contract-${++repos}`);
    },
    async stop() {
      await server?.stop();
    },
  };
}

/**
 * The AsyncCatalog contract, one suite for every store (issue 18): every layer above the store relies on exactly
 * these answers, so the embedded SQLite catalog and a PostgreSQL namespace must give them alike.
 */
describe.each([embeddedStore(), overlayStore(), postgresStore()])('AsyncCatalog contract: $name', (store) => {
  const open: AsyncCatalog[] = [];
  const fresh = async (): Promise<AsyncCatalog> => {
    const catalog = await store.open();
    open.push(catalog);
    return catalog;
  };

  beforeAll(async () => {
    if (!store.skip) await store.start();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await store.stop();
  });

  it.skipIf(store.skip)('records the chunker version of a full pass (a local layer over a shared index has none)', async () => {
    const catalog = await fresh();
    const isLayer = store.name.startsWith('overlay');
    expect(await catalog.chunkerVersion()).toBe(isLayer ? undefined : null);
    await catalog.setChunkerVersion('7');
    expect(await catalog.chunkerVersion()).toBe(isLayer ? undefined : '7');
  });

  it.skipIf(store.skip)('replaceFile keeps unchanged chunks, moves moved ones, replaces changed ones; reads give the rows back', async () => {
    const catalog = await fresh();
    const alpha = chunk('alpha', 'function alpha() { return 1; }', 1);
    const beta = chunk('beta', 'function beta() { return 2; }', 3);
    const gamma = chunk('gamma', 'function gamma() { return 3; }', 5);
    const first = await catalog.replaceFile(fileInput('src/a.ts', [
      { chunk: alpha, vector: unit(1, 0, 0, 0) }, { chunk: beta, vector: unit(0, 1, 0, 0) }, { chunk: gamma, vector: unit(0, 0, 1, 0) },
    ]));
    expect({ removed: first.removedRowIds, kept: first.keptCount, hashes: first.added.map((a) => a.hash) })
      .toEqual({ removed: [], kept: 0, hashes: [alpha.hash, beta.hash, gamma.hash] });
    const [a, b, c] = first.added.map((x) => x.rowId) as [number, number, number];
    expect(await catalog.generation()).toBe(1);
    expect(await catalog.chunkCount()).toBe(3);
    expect(await catalog.getChunks([c, 999_999, a])).toEqual([
      expect.objectContaining({ rowId: c, chunkId: 'gamma:5', symbol: 'gamma', path: 'src/a.ts', startLine: 5, hash: gamma.hash }),
      expect.objectContaining({ rowId: a, chunkId: 'alpha:1', symbol: 'alpha', path: 'src/a.ts', startLine: 1, hash: alpha.hash }),
    ]);
    expect(await catalog.rowPaths([a, 999_999])).toEqual(new Map([[a, 'src/a.ts']]));

    const delta = chunk('delta', 'function delta() { return 4; }', 9);
    const second = await catalog.replaceFile(fileInput('src/a.ts', [
      { chunk: alpha }, { chunk: { ...beta, id: 'beta:5', startLine: 5, endLine: 5 } }, { chunk: delta, vector: unit(0, 0, 0, 1) },
    ]));
    expect(second.removedRowIds).toEqual([c]);
    expect(second.keptCount).toBe(2);
    const d = second.added[0]!.rowId;
    expect(await catalog.liveRowIds()).toEqual([a, b, d]);
    expect((await catalog.getChunkByRowId(b))?.startLine).toBe(5);
    expect(await catalog.getChunkByRowId(c)).toBeUndefined();
    expect(await catalog.generation()).toBe(2);
    expect(await catalog.replaceFile(fileInput('src/a.ts', [{ chunk: alpha }, { chunk: { ...beta, id: 'beta:5', startLine: 5, endLine: 5 } }, { chunk: delta }])))
      .toEqual({ removedRowIds: [], added: [], keptCount: 3 });
    expect(await catalog.generation()).toBe(2);
    expect(await catalog.maxRowId()).toBeGreaterThanOrEqual(d);
    expect(await catalog.integrityCheck()).toEqual([]);
  });

  it.skipIf(store.skip)('removeFiles and clear drop files and chunks; the embedding cache keeps their vectors', async () => {
    const catalog = await fresh();
    const one = await catalog.replaceFile(fileInput('a.ts', [{ chunk: chunk('one', 'one()'), vector: unit(1, 0, 0, 0) }]));
    const two = await catalog.replaceFile(fileInput('b.ts', [{ chunk: chunk('two', 'two()'), vector: unit(0, 1, 0, 0) }]));
    expect((await catalog.listFiles()).map((f) => f.path)).toEqual(['a.ts', 'b.ts']);
    expect(await catalog.getFile('b.ts')).toEqual(expect.objectContaining({ path: 'b.ts', size: 100, language: 'typescript' }));
    await catalog.touchFile({ path: 'b.ts', size: 7, mtimeMs: 42 });
    expect(await catalog.getFile('b.ts')).toEqual(expect.objectContaining({ size: 7, mtimeMs: 42 }));
    expect(await catalog.removeFiles(['b.ts', 'missing.ts'])).toEqual(two.added.map((x) => x.rowId));
    expect(await catalog.getFile('b.ts')).toBeUndefined();
    expect(await catalog.liveRowIds()).toEqual(one.added.map((x) => x.rowId));
    expect([...(await catalog.cachedVectors([hashOf('two()'), hashOf('never()')], REVISION)).keys()]).toEqual([hashOf('two()')]);
    expect(await catalog.cachedVectors([hashOf('two()')], 'another-revision')).toEqual(new Map());
    await catalog.clear();
    expect({ files: await catalog.listFiles(), chunks: await catalog.chunkCount() }).toEqual({ files: [], chunks: 0 });
    expect([...(await catalog.cachedVectors([hashOf('one()')], REVISION)).keys()]).toEqual([hashOf('one()')]);
    expect(await catalog.dropCachedVectors([hashOf('one()')], REVISION)).toBe(1);
    expect(await catalog.cachedVectors([hashOf('one()')], REVISION)).toEqual(new Map());
  });

  it.skipIf(store.skip)('texts wait in the queue until their vectors come; then every reader of vectors sees them', async () => {
    const catalog = await fresh();
    const waiting = chunk('later', 'function later() {}');
    const written = await catalog.replaceFile({ ...fileInput('q.ts', [{ chunk: waiting }]), pending: new Map([[waiting.hash, 'embed later']]) });
    const rowId = written.added[0]!.rowId;
    expect(await catalog.pendingTexts(10)).toEqual([{ hash: waiting.hash, embedText: 'embed later' }]);
    expect(await catalog.waitingRowIds()).toEqual([rowId]);
    expect(await catalog.pendingChunkCount()).toBe(1);
    expect(await catalog.missingVectors(REVISION)).toEqual([]);
    expect(await catalog.vectorsForRows([rowId], REVISION)).toEqual([]);
    const before = await catalog.generation();
    expect(await catalog.storePendingVectors(new Map([[waiting.hash, unit(0, 0, 1, 1)]]), REVISION)).toEqual([{ rowId, hash: waiting.hash }]);
    expect(await catalog.generation()).toBe(before + 1);
    expect(await catalog.pendingTexts(10)).toEqual([]);
    expect(await catalog.pendingChunkCount()).toBe(0);
    expect(await catalog.vectorsForRows([rowId], REVISION)).toEqual([{ rowId, vector: unit(0, 0, 1, 1) }]);
    const all: Array<{ rowId: number; vector: Float32Array }> = [];
    for await (const item of catalog.allVectors(REVISION)) all.push(item);
    expect(all).toEqual([{ rowId, vector: unit(0, 0, 1, 1) }]);
    expect(await catalog.dropUnusedPendingTexts()).toBe(0);
  });

  it.skipIf(store.skip)('manifest, reset mark, term statistics and symbol look-ups', async () => {
    const catalog = await fresh();
    expect(await catalog.getManifest()).toEqual(expect.objectContaining({ model: IDENTITY.model, dimension: IDENTITY.dimension, revision: REVISION, root: expect.stringMatching(/^\/src\/contract/), schemaVersion: catalog.schemaVersion }));
    await expect(catalog.assertCompatible({ ...IDENTITY, revision: 'other' })).rejects.toThrow(IndexMismatchError);
    await catalog.assertCompatible(IDENTITY);
    expect(await catalog.resetReason()).toBeNull();
    await catalog.markReset('the disk ate it');
    expect(await catalog.resetReason()).toBe('the disk ate it');
    await catalog.clearReset();
    expect(await catalog.resetReason()).toBeNull();

    await catalog.replaceFile(fileInput('src/limit.ts', [
      { chunk: chunk('RateLimiter', 'export class RateLimiter { throttle() {} }', 1, { kind: 'class' }), vector: unit(1, 0, 0, 0) },
      { chunk: chunk('throttleRequests', 'export function throttleRequests() { return new RateLimiter(); }', 3), vector: unit(0, 1, 0, 0) },
    ]));
    await catalog.replaceFile(fileInput('src/other.ts', [{ chunk: chunk('unrelated', 'export function unrelated() { return 0; }'), vector: unit(0, 0, 1, 0) }]));
    expect(await catalog.documentFrequencies(['ratelimiter', 'unrelated', 'nowhere'])).toEqual(new Map([['ratelimiter', 2], ['unrelated', 1], ['nowhere', 0]]));
    const [limiter] = await catalog.findSymbolRowIds(['RateLimiter']);
    expect((await catalog.getChunkByRowId(limiter!))?.symbol).toBe('RateLimiter');
    expect(await catalog.symbolPaths(['RateLimiter', 'unrelated', 'missing'])).toEqual(new Map([['RateLimiter', ['src/limit.ts']], ['unrelated', ['src/other.ts']]]));
    const hits = await catalog.lexicalSearch('rate limiter', { k: 5 });
    expect((await catalog.getChunks(hits.map((h) => h.rowId))).map((c) => c.symbol)).toEqual(['RateLimiter', 'throttleRequests']);
    expect(await catalog.lexicalSearch('rate limiter', { k: 5, accept: (p) => p !== 'src/limit.ts' })).toEqual([]);

    await catalog.resetManifest();
    // An overlay's identity is its shared layer's: forgetting the local layer's leaves the shared one in view.
    if (catalog instanceof OverlayCatalog) expect(await catalog.getManifest()).toEqual(await catalog.base.getManifest());
    else expect(await catalog.getManifest()).toBeNull();
    expect(await catalog.stats()).toEqual(expect.objectContaining({ files: 2, chunks: 3 }));
  });
});
