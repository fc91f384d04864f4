import { existsSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { filesStamp, VECTORS_CHECK_STAMP_FILE } from '../../../src/store/check-stamp.js';
import { HnswStore } from '../../../src/store/hnsw-store.js';
import { cosine, makeTempDirs, seededRandom, unitVector } from './store-helpers.js';

const tmp = makeTempDirs();
afterEach(() => tmp.cleanup());

const DIM = 16;

function filled(count: number, options: { seed?: number; dir?: string; initialCapacity?: number } = {}) {
  const random = seededRandom(options.seed ?? 7);
  const items = Array.from({ length: count }, (_, i) => ({ rowId: i + 1, vector: unitVector(random, DIM) }));
  const store = HnswStore.create({ indexDir: options.dir ?? tmp.make(), dimension: DIM, initialCapacity: options.initialCapacity ?? 16 });
  store.upsert(items);
  return { store, items, random };
}

function exactNearest(items: Array<{ rowId: number; vector: Float32Array }>, query: Float32Array, k: number) {
  return items
    .map((item) => ({ rowId: item.rowId, similarity: cosine(item.vector, query) }))
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, k);
}

describe('HnswStore queries', () => {
  it('returns the exact nearest neighbours of random unit vectors, with cosine similarity', () => {
    const { store, items, random } = filled(600);
    expect(store.size).toBe(600);
    for (let q = 0; q < 20; q++) {
      const query = unitVector(random, DIM);
      const hits = store.query(query, { k: 5 });
      const exact = exactNearest(items, query, 5);
      expect(hits.map((h) => h.rowId)).toEqual(exact.map((e) => e.rowId));
      hits.forEach((hit, i) => expect(hit.similarity).toBeCloseTo(exact[i]!.similarity, 5));
    }
  });

  it('finds a stored vector itself with similarity 1', () => {
    const { store, items } = filled(50);
    const [hit] = store.query(items[17]!.vector, { k: 1 });
    expect(hit?.rowId).toBe(18);
    expect(hit?.similarity).toBeCloseTo(1, 5);
  });

  it('returns every live vector when k exceeds the size, and [] when empty', () => {
    const { store } = filled(3);
    expect(store.query(unitVector(seededRandom(1), DIM), { k: 100 }).map((h) => h.rowId).sort()).toEqual([1, 2, 3]);
    const empty = HnswStore.create({ indexDir: tmp.make(), dimension: DIM });
    expect(empty.query(unitVector(seededRandom(1), DIM), { k: 10 })).toEqual([]);
  });

  it('returns k results when k exceeds efSearch', () => {
    const random = seededRandom(3);
    const store = HnswStore.create({ indexDir: tmp.make(), dimension: DIM, efSearch: 1, m: 2 });
    store.upsert(Array.from({ length: 100 }, (_, i) => ({ rowId: i + 1, vector: unitVector(random, DIM) })));
    expect(store.query(unitVector(random, DIM), { k: 60 })).toHaveLength(60);
  });

  it('applies accept while searching and rethrows its errors', () => {
    const { store, items, random } = filled(300);
    const query = unitVector(random, DIM);
    const even = store.query(query, { k: 10, accept: (rowId) => rowId % 2 === 0 });
    const exact = exactNearest(items.filter((i) => i.rowId % 2 === 0), query, 10);
    expect(even.map((h) => h.rowId)).toEqual(exact.map((e) => e.rowId));
    expect(store.query(query, { k: 10, accept: (rowId) => rowId === 123 }).map((h) => h.rowId)).toEqual([123]);
    expect(() => store.query(query, { k: 3, accept: () => { throw new Error('boom'); } })).toThrow('boom');
  });

  it('grows past its initial capacity and replaces a vector in place', () => {
    const { store, items } = filled(100, { initialCapacity: 4 });
    expect(store.size).toBe(100);
    store.upsert([{ rowId: 5, vector: items[60]!.vector }]);
    expect(store.size).toBe(100);
    expect(store.query(items[60]!.vector, { k: 2 }).map((h) => h.rowId).sort((a, b) => a - b)).toEqual([5, 61]);
    expect(() => store.upsert([{ rowId: 999, vector: new Float32Array(3) }])).toThrow(RangeError);
  });
});

describe('HnswStore deletes', () => {
  it('hides deleted vectors, counts them and flags compaction above 20%', () => {
    const { store, items } = filled(10);
    expect(store.remove([1, 2, 2, 42])).toBe(2);
    expect(store.remove([1])).toBe(0);
    expect(store.size).toBe(8);
    expect(store.deletedCount).toBe(2);
    expect(store.needsCompaction).toBe(false);
    expect(store.query(items[0]!.vector, { k: 10 }).map((h) => h.rowId).sort((a, b) => a - b)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    store.remove([3]);
    expect(store.needsCompaction).toBe(true);
    store.upsert([{ rowId: 3, vector: items[2]!.vector }]);
    expect(store.has(3)).toBe(true);
    expect(store.deletedCount).toBe(2);
  });

  it('still returns k results when most of the graph is deleted', () => {
    const { store, items } = filled(400);
    store.remove(items.slice(0, 390).map((i) => i.rowId));
    const hits = store.query(items[0]!.vector, { k: 10 });
    expect(hits.map((h) => h.rowId).sort((a, b) => a - b)).toEqual([391, 392, 393, 394, 395, 396, 397, 398, 399, 400]);
  });
});

describe('HnswStore persistence', () => {
  it('saves atomically and loads the same graph, deletes and generation', async () => {
    const dir = tmp.make();
    const { store, random } = filled(200, { dir });
    store.remove([7, 8]);
    store.setGeneration(12);
    expect(store.isDirty).toBe(true);
    await store.save();
    expect(store.isDirty).toBe(false);
    expect(existsSync(join(dir, `vectors.hnsw.tmp-${process.pid}`))).toBe(false);
    const meta = JSON.parse(readFileSync(join(dir, 'vectors.json'), 'utf8'));
    expect(meta).toMatchObject({ dimension: DIM, generation: 12, maxRowId: 200, count: 200, deleted: 2, deletedRowIds: [7, 8] });
    expect(meta.bytes).toBe(statSync(join(dir, 'vectors.hnsw')).size);

    const loaded = HnswStore.load({ indexDir: dir, dimension: DIM });
    expect(loaded).not.toBeNull();
    expect([loaded!.size, loaded!.deletedCount, loaded!.generation, loaded!.isDirty]).toEqual([198, 2, 12, false]);
    const query = unitVector(random, DIM);
    expect(loaded!.query(query, { k: 8 })).toEqual(store.query(query, { k: 8 }));
    expect(loaded!.has(7)).toBe(false);
  });

  it('returns null for a missing, truncated, garbage or other-dimension file', async () => {
    const dir = tmp.make();
    expect(HnswStore.tryLoad({ indexDir: dir, dimension: DIM })).toEqual({ store: null, reason: `${join(dir, 'vectors.json')} is missing or invalid` });
    const { store } = filled(50, { dir });
    await store.save();
    expect(HnswStore.load({ indexDir: dir, dimension: 8 })).toBeNull();

    const graph = join(dir, 'vectors.hnsw');
    const original = readFileSync(graph);
    truncateSync(graph, original.length - 100);
    expect(HnswStore.tryLoad({ indexDir: dir, dimension: DIM }).reason).toMatch(/bytes, meta says/);

    writeFileSync(graph, Buffer.alloc(original.length, 0xab));
    expect(HnswStore.tryLoad({ indexDir: dir, dimension: DIM }).reason).toMatch(/checksum/);

    writeFileSync(graph, original);
    writeFileSync(join(dir, 'vectors.json'), '{"formatVersion":1,');
    expect(HnswStore.load({ indexDir: dir, dimension: DIM })).toBeNull();
  });

  it('records the checked state of graph and meta, and still catches same-size damage after a trusted load', async () => {
    const dir = tmp.make();
    const { store, items } = filled(40, { dir });
    await store.save();
    const stampPath = join(dir, VECTORS_CHECK_STAMP_FILE);
    expect(existsSync(stampPath)).toBe(false);
    expect(HnswStore.load({ indexDir: dir, dimension: DIM })).not.toBeNull();
    const paths = [join(dir, 'vectors.hnsw'), join(dir, 'vectors.json')];
    expect(readFileSync(stampPath, 'utf8')).toBe(filesStamp(paths));
    // Unchanged files load on the recorded check, with the same answers.
    const trusted = HnswStore.load({ indexDir: dir, dimension: DIM })!;
    expect(trusted.query(items[3]!.vector, { k: 1 })[0]!.rowId).toBe(4);
    // A write keeps the size but moves the ctime: the checksum runs again and fails.
    const graph = readFileSync(paths[0]!);
    graph.fill(0x11, graph.length - 64);
    writeFileSync(paths[0]!, graph);
    expect(filesStamp(paths)).not.toBe(readFileSync(stampPath, 'utf8'));
    expect(HnswStore.tryLoad({ indexDir: dir, dimension: DIM }).reason).toMatch(/checksum/);
  });

  it('rejects a garbage file even when its meta matches it (hnswlib never sees it)', async () => {
    const dir = tmp.make();
    const { store } = filled(20, { dir });
    await store.save();
    const meta = JSON.parse(readFileSync(join(dir, 'vectors.json'), 'utf8'));
    const garbage = Buffer.alloc(meta.bytes, 0x7f);
    writeFileSync(join(dir, 'vectors.hnsw'), garbage);
    const { createHash } = await import('node:crypto');
    meta.sha256 = createHash('sha256').update(garbage).digest('hex');
    writeFileSync(join(dir, 'vectors.json'), JSON.stringify(meta));
    expect(HnswStore.tryLoad({ indexDir: dir, dimension: DIM }).reason).toMatch(/level-0 offset is not 0/);
  });

  it('save is a no-op when clean', async () => {
    const dir = tmp.make();
    const { store } = filled(5, { dir });
    await store.save();
    const before = statSync(join(dir, 'vectors.json')).mtimeMs;
    await store.save();
    expect(statSync(join(dir, 'vectors.json')).mtimeMs).toBe(before);
  });
});
