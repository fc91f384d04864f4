import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../src/errors.js';
import { PostgresCatalog } from '../../../../src/store/postgres/postgres-catalog.js';
import { chunk, fileInput, hashOf, openWriter, REVISION, unit } from '../../../support/postgres-fixtures.js';
import { isPostgresSkipped, withClient } from '../../../support/postgres-server.js';
import { postgresSuite } from '../../../support/postgres-suite.js';

describe.skipIf(isPostgresSkipped)('PostgreSQL store: files, chunks, namespaces, vector search', () => {
  const suite = postgresSuite();
  let repos = 0;

  /** A writer of a repo no other test uses, so every test starts from an empty namespace. */
  async function writer(ref = 'main', repo = `repo-${++repos}`): Promise<PostgresCatalog> {
    const catalog = await openWriter(suite.server.connectionString, ref, repo);
    return suite.track(catalog);
  }

  async function reader(repo: string, ref = 'main'): Promise<PostgresCatalog> {
    const catalog = await PostgresCatalog.open({ connectionString: suite.server.connectionString, repo, ref, mode: 'read' });
    return suite.track(catalog);
  }


  it('runs overlapping writes one after another on the writer connection: a failing transaction takes no other write with it', async () => {
    const catalog = await writer();
    // A NUL byte is no valid PostgreSQL text: this replaceFile fails inside its transaction.
    const failing = catalog.replaceFile(fileInput('src/bad.ts', [{ chunk: chunk('bad', 'function bad() {}\u0000', 1) }]));
    const marked = catalog.markReset('overlapping write');
    await expect(failing).rejects.toThrow();
    await marked;
    expect(await catalog.resetReason()).toBe('overlapping write');
    expect(await catalog.getFile('src/bad.ts')).toBeUndefined();
  });

  it('round-trips replaceFile: rows as written, unchanged chunks keep their ids, moved ones their ids with new lines', async () => {
    const catalog = await writer();
    const alpha = chunk('alpha', 'function alpha() { return 1; }', 1);
    const beta = chunk('beta', 'function beta() { return 2; }', 3);
    const gamma = chunk('gamma', 'function gamma() { return 3; }', 5);
    const first = await catalog.replaceFile(fileInput('src/a.ts', [
      { chunk: alpha, vector: unit(1, 0, 0, 0) }, { chunk: beta, vector: unit(0, 1, 0, 0) }, { chunk: gamma, vector: unit(0, 0, 1, 0) },
    ]));
    expect(first.keptCount).toBe(0);
    expect(first.removedRowIds).toEqual([]);
    expect(first.added.map((a) => a.hash)).toEqual([alpha.hash, beta.hash, gamma.hash]);
    const [a, b, c] = first.added.map((x) => x.rowId) as [number, number, number];
    expect(b).toBe(a + 1);
    expect(await catalog.generation()).toBe(1);
    expect(await catalog.chunkCount()).toBe(3);
    expect(await catalog.getFile('src/a.ts')).toEqual({
      path: 'src/a.ts', size: 100, mtimeMs: 1_700_000_000_000, contentHash: hashOf('src/a.ts' + [alpha, beta, gamma].map((x) => x.text).join()),
      language: 'typescript', indexedAt: expect.any(Number),
    });
    expect(await catalog.getChunkByRowId(b)).toEqual({
      rowId: b, chunkId: 'beta:3', path: 'src/a.ts', language: 'typescript', kind: 'function', symbol: 'beta', parent: null,
      signature: 'function beta()', startLine: 3, endLine: 3, hash: beta.hash, text: beta.text,
    });

    // alpha unchanged, beta moved two lines down (same content), gamma replaced by delta.
    const delta = chunk('delta', 'function delta() { return 4; }', 9, { part: { index: 0, count: 2 } });
    const second = await catalog.replaceFile(fileInput('src/a.ts', [
      { chunk: alpha }, { chunk: { ...beta, id: 'beta:5', startLine: 5, endLine: 5 } }, { chunk: delta, vector: unit(0, 0, 0, 1) },
    ]));
    expect(second.keptCount).toBe(2);
    expect(second.removedRowIds).toEqual([c]);
    expect(second.added).toEqual([{ rowId: expect.any(Number), hash: delta.hash }]);
    const d = second.added[0]!.rowId;
    expect(d).toBeGreaterThan(c);
    expect((await catalog.getChunks([d, b, c, a])).map((r) => [r.rowId, r.symbol, r.startLine, r.chunkId, r.part])).toEqual([
      [d, 'delta', 9, 'delta:9', { index: 0, count: 2 }], [b, 'beta', 5, 'beta:5', undefined], [a, 'alpha', 1, 'alpha:1', undefined],
    ]);
    expect(await catalog.liveRowIds()).toEqual([a, b, d]);
    expect(await catalog.generation()).toBe(2);
    expect(await catalog.maxRowId()).toBeGreaterThanOrEqual(d);

    // The same file again changes nothing and does not move the generation.
    const third = await catalog.replaceFile(fileInput('src/a.ts', [
      { chunk: alpha }, { chunk: { ...beta, id: 'beta:5', startLine: 5, endLine: 5 } }, { chunk: delta },
    ]));
    expect(third).toEqual({ removedRowIds: [], added: [], keptCount: 3 });
    expect(await catalog.generation()).toBe(2);
    expect(await catalog.integrityCheck()).toEqual([]);
  });

  it('removeFiles deletes files and chunks in one transaction and returns the chunk ids', async () => {
    const catalog = await writer();
    const a = await catalog.replaceFile(fileInput('a.ts', [{ chunk: chunk('one', 'one()'), vector: unit(1, 0, 0, 0) }]));
    const b = await catalog.replaceFile(fileInput('b.ts', [{ chunk: chunk('two', 'two()'), vector: unit(0, 1, 0, 0) }, { chunk: chunk('three', 'three()', 2), vector: unit(0, 0, 1, 0) }]));
    expect((await catalog.listFiles()).map((f) => f.path)).toEqual(['a.ts', 'b.ts']);
    const before = await catalog.generation();
    expect(await catalog.removeFiles(['b.ts', 'missing.ts'])).toEqual(b.added.map((x) => x.rowId));
    expect((await catalog.listFiles()).map((f) => f.path)).toEqual(['a.ts']);
    expect(await catalog.getChunks(b.added.map((x) => x.rowId))).toEqual([]);
    expect(await catalog.liveRowIds()).toEqual(a.added.map((x) => x.rowId));
    expect(await catalog.generation()).toBe(before + 1);
    expect(await catalog.removeFiles(['missing.ts'])).toEqual([]);
    expect(await catalog.generation()).toBe(before + 1);
    // The cache keeps the vectors of removed text: a file that comes back costs no embedding.
    expect([...(await catalog.cachedVectors([hashOf('two()')], REVISION)).keys()]).toEqual([hashOf('two()')]);
    await catalog.clear();
    expect(await catalog.listFiles()).toEqual([]);
    expect(await catalog.chunkCount()).toBe(0);
  });

  it('keeps namespaces apart in one database and embeds identical text once for all of them', async () => {
    const repo = `repo-${++repos}`;
    const main = await writer('main', repo);
    const feature = await writer('feature/x', repo);
    const shared = chunk('shared', 'export function shared() { return "same text on both branches"; }');
    const onlyMain = chunk('onlyMain', 'export const onlyMain = 1;', 3);
    const m = await main.replaceFile(fileInput('src/s.ts', [{ chunk: shared, vector: unit(1, 1, 0, 0) }, { chunk: onlyMain, vector: unit(0, 0, 1, 0) }]));

    // The branch finds the text's vector in the shared cache and writes the file without one.
    const cached = await feature.cachedVectors([shared.hash], REVISION);
    expect([...cached.keys()]).toEqual([shared.hash]);
    expect(Array.from(cached.get(shared.hash)!)).toEqual(Array.from(unit(1, 1, 0, 0)));
    const f = await feature.replaceFile(fileInput('src/s.ts', [{ chunk: shared }]));
    const copies = await withClient(suite.server.connectionString, async (c) => (await c.query(
      'SELECT count(*)::int AS n FROM embeddings WHERE text_hash = $1', [shared.hash],
    )).rows[0].n);
    expect(copies).toBe(1);

    expect((await feature.listFiles()).map((x) => x.path)).toEqual(['src/s.ts']);
    expect(await feature.chunkCount()).toBe(1);
    expect(await main.chunkCount()).toBe(2);
    // Row ids of one namespace mean nothing in another.
    expect(await feature.getChunks(m.added.map((x) => x.rowId))).toEqual([]);
    expect(await main.getChunkByRowId(f.added[0]!.rowId)).toBeUndefined();
    expect(await feature.findSymbolRowIds(['onlyMain'])).toEqual([]);
    expect(await main.findSymbolRowIds(['onlyMain'])).toEqual([m.added[1]!.rowId]);
    expect(await main.symbolPaths(['shared', 'onlyMain'])).toEqual(new Map([['shared', ['src/s.ts']], ['onlyMain', ['src/s.ts']]]));

    await feature.removeFiles(['src/s.ts']);
    expect(await main.chunkCount()).toBe(2);
    expect((await main.listFiles()).map((x) => x.path)).toEqual(['src/s.ts']);
    // Pruning from the branch keeps what main still uses.
    expect(await feature.pruneEmbeddings({ revision: REVISION, keepUnreferenced: 0 })).toBeGreaterThanOrEqual(0);
    expect([...(await main.cachedVectors([shared.hash, onlyMain.hash], REVISION)).keys()].sort()).toEqual([shared.hash, onlyMain.hash].sort());

    const r = await reader(repo, 'feature/x');
    expect(await r.chunkCount()).toBe(0);
    await expect(PostgresCatalog.open({ connectionString: suite.server.connectionString, repo, ref: 'nope', mode: 'read' }))
      .rejects.toThrow(ConfigError);
  });

  it('finds the nearest chunks of its own namespace only, nearest first, through the HNSW index', async () => {
    const repo = `repo-${++repos}`;
    const main = await writer('main', repo);
    const other = await writer('other', repo);
    const north = chunk('north', 'north()');
    const east = chunk('east', 'east()', 2);
    const south = chunk('south', 'south()', 3);
    const m = await main.replaceFile(fileInput('dirs.ts', [
      { chunk: north, vector: unit(1, 0, 0, 0) }, { chunk: east, vector: unit(0, 1, 0, 0) }, { chunk: south, vector: unit(-1, 0, 0, 0) },
    ]));
    // The other namespace has the chunk closest to the query; main must not see it.
    await other.replaceFile(fileInput('near.ts', [{ chunk: chunk('closest', 'closest()'), vector: unit(1, 0.1, 0, 0) }]));
    const [northId, eastId, southId] = m.added.map((x) => x.rowId);

    const hits = await main.nearestChunks(unit(1, 0.2, 0, 0), { k: 2 });
    expect(hits.map((h) => h.rowId)).toEqual([northId, eastId]);
    expect(hits[0]!.similarity).toBeCloseTo(1 / Math.hypot(1, 0.2), 5);
    expect(hits[1]!.similarity).toBeCloseTo(0.2 / Math.hypot(1, 0.2), 5);
    expect((await main.nearestChunks(unit(1, 0.2, 0, 0), { k: 10 })).map((h) => h.rowId)).toEqual([northId, eastId, southId]);
    expect((await main.nearestChunks(unit(1, 0.2, 0, 0), { k: 1, accept: (id) => id !== northId })).map((h) => h.rowId)).toEqual([eastId]);
    // A filtered search reads ever deeper (k x 4, x 16, ...): past pgvector's ef_search limit of 1000 it must still
    // answer (the iterative scan returns every row asked for), not fail with "outside the valid range".
    expect((await main.nearestChunks(unit(1, 0.2, 0, 0), { k: 300, accept: (id) => id === southId })).map((h) => h.rowId)).toEqual([southId]);
    expect((await main.nearestChunks(unit(1, 0.2, 0, 0), { k: 5000 })).map((h) => h.rowId)).toEqual([northId, eastId, southId]);
    const otherHits = await other.nearestChunks(unit(1, 0.2, 0, 0), { k: 10 });
    expect(otherHits.map((h) => h.rowId)).not.toContain(northId);
    expect(otherHits).toHaveLength(1);

    const plan = await withClient(suite.server.connectionString, async (c) => {
      await c.query('BEGIN');
      await c.query('SET LOCAL enable_seqscan = off');
      const rows = (await c.query(
        `EXPLAIN SELECT c.id FROM embeddings e JOIN chunks c ON c.text_hash = e.text_hash AND c.namespace_id = $2
         WHERE e.dims = 4 AND e.revision = $3 ORDER BY (e.vector::vector(4)) <=> $1::vector(4) LIMIT 2`,
        ['[1,0.2,0,0]', main.namespaceId, REVISION],
      )).rows as Array<{ 'QUERY PLAN': string }>;
      await c.query('ROLLBACK');
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('embeddings_hnsw_4');
  });

  it('reports the database side of verify: a missing HNSW index, chunks without vectors', async () => {
    const catalog = await writer();
    await catalog.replaceFile(fileInput('v.ts', [{ chunk: chunk('novector', 'novector()') }]));
    expect(await catalog.integrityCheck()).toEqual([`1 chunks of ${catalog.label} have no cached vector and none queued`]);
    await catalog.replaceFile({ ...fileInput('v.ts', [{ chunk: chunk('novector', 'novector()') }]), pending: new Map([[hashOf('novector()'), 'embed me']]) });
    expect(await catalog.integrityCheck()).toEqual([]);
    expect(await catalog.pendingTexts(10)).toEqual([{ hash: hashOf('novector()'), embedText: 'embed me' }]);
    expect(await catalog.pendingChunkCount()).toBe(1);
    const rows = await catalog.storePendingVectors(new Map([[hashOf('novector()'), unit(0, 0, 1, 1)]]), REVISION);
    expect(rows.map((r) => r.hash)).toEqual([hashOf('novector()')]);
    expect(await catalog.pendingChunkCount()).toBe(0);
    expect(await catalog.vectorsForRows(rows.map((r) => r.rowId), REVISION)).toEqual([{ rowId: rows[0]!.rowId, vector: unit(0, 0, 1, 1) }]);
    await withClient(suite.server.connectionString, (c) => c.query('ALTER INDEX embeddings_hnsw_4 RENAME TO hidden_index'));
    try {
      expect(await catalog.integrityCheck()).toEqual(['no HNSW index for 4-dimensional vectors']);
    } finally {
      await withClient(suite.server.connectionString, (c) => c.query('ALTER INDEX hidden_index RENAME TO embeddings_hnsw_4'));
    }
  });
});
