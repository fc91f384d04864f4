import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compilePathGlobs } from '../../../src/retrieve/path-globs.js';
import { completeSimilarity, searchChunks, toHit, type SearchSources } from '../../../src/retrieve/hybrid-search.js';
import { Catalog } from '../../../src/store/catalog.js';
import type { ReplaceFileInput } from '../../../src/store/catalog-types.js';
import { HnswStore } from '../../../src/store/hnsw-store.js';
import { HnswVectorStore } from '../../../src/store/hnsw-vector-store.js';
import { PgvectorStore } from '../../../src/store/postgres/pgvector-store.js';
import type { PostgresCatalog } from '../../../src/store/postgres/postgres-catalog.js';
import { SqliteAsyncCatalog } from '../../../src/store/sqlite-async-catalog.js';
import type { SearchMode } from '../../../src/types.js';
import { chunk, DIMS, fileInput, IDENTITY, openWriter, REVISION, unit } from '../../support/postgres-fixtures.js';
import { isPostgresSkipped, startPostgres, type PostgresServer } from '../../support/postgres-server.js';

/** A small code base: distinct directions, so every nearest-neighbour order is strict. */
const FILES: ReplaceFileInput[] = [
  fileInput('src/net/pacing.ts', [
    { chunk: chunk('throttleRequests', 'export function throttleRequests(limit: number) {\n  return new RateLimiter(limit);\n}'), vector: unit(1, 0.1, 0, 0) },
    { chunk: chunk('RateLimiter', 'export class RateLimiter {\n  constructor(readonly perSecond: number) {}\n}', 5, { kind: 'class' }), vector: unit(0.2, 1, 0, 0) },
  ]),
  fileInput('src/config/limits.py', [
    { chunk: chunk('MAX_FILE_BYTES', 'MAX_FILE_BYTES = 1_000_000\nmax_file_count = 20', 1, { kind: 'text' }), vector: unit(0, 0.3, 1, 0) },
    { chunk: chunk('read_config_file', 'def read_config_file(path):\n    return open(path).read()', 4), vector: unit(0, 0, 0.4, 1) },
  ], 'python'),
  fileInput('src/http/parse.ts', [
    { chunk: chunk('parseHTTPResponse2xx', 'export function parseHTTPResponse2xx(body: string) {\n  return JSON.parse(body);\n}'), vector: unit(1, 0.7, 0.1, 0) },
  ]),
  fileInput('docs/limits.md', [
    { chunk: chunk('Request limits', 'The limit of requests per second, and how the limiter throttles them.', 1, { kind: 'section' }), vector: unit(0.1, 1, 0.8, 0.2) },
  ], 'markdown'),
];

const SEARCHES: ReadonlyArray<{ text: string; vector: Float32Array; include?: string[] }> = [
  { text: 'throttle requests', vector: unit(1, 0.2, 0.05, 0) },
  { text: 'RateLimiter', vector: unit(0.3, 1, 0.1, 0) },
  { text: 'max file bytes config', vector: unit(0, 0.2, 1, 0.3) },
  { text: 'read config file', vector: unit(0.05, 0, 0.3, 1), include: ['src/**'] },
  { text: 'limit requests per second', vector: unit(0.2, 0.9, 0.6, 0.1), include: ['**/*.md', 'src/net/**'] },
];

/**
 * The store ports' contract on search: hybrid, lexical and vector search (src/retrieve/hybrid-search.ts, which sees
 * only AsyncCatalog and VectorStore) give the same hits through the embedded store (SQLite + HNSW) and through
 * PostgreSQL + pgvector, for the same files.
 */
describe.skipIf(isPostgresSkipped)('store ports: one search, either store', () => {
  let server: PostgresServer;
  let pg: PostgresCatalog;
  let sqliteDir: string;
  let sqlite: Catalog;
  let embedded: SearchSources;
  let team: SearchSources;

  beforeAll(async () => {
    server = await startPostgres();
    pg = await openWriter(server.connectionString, 'main', 'ports');
    sqliteDir = mkdtempSync(join(tmpdir(), 'codescout-ports-'));
    sqlite = Catalog.open(sqliteDir);
    sqlite.initManifest({ ...IDENTITY, root: '/src/ports' });
    const graph = HnswStore.create({ indexDir: sqliteDir, dimension: DIMS });
    for (const file of FILES) {
      await pg.replaceFile(file);
      const { added } = sqlite.replaceFile(file);
      graph.upsert(added.map((a) => ({ rowId: a.rowId, vector: file.vectors.get(a.hash)! })));
    }
    graph.setGeneration(sqlite.generation());
    embedded = {
      catalog: new SqliteAsyncCatalog(sqlite),
      vectors: new HnswVectorStore({ graph, catalog: sqlite, indexDir: sqliteDir, revision: REVISION, lockWaitMs: 0, readonly: true }),
    };
    team = { catalog: pg, vectors: new PgvectorStore(pg) };
  });
  afterAll(async () => {
    await pg?.close();
    sqlite?.close();
    if (sqliteDir) rmSync(sqliteDir, { recursive: true, force: true });
    await server?.stop();
  });

  /** The hits as the public Hit (row ids differ between stores; everything a caller sees must not). */
  async function search(sources: SearchSources, mode: SearchMode, s: (typeof SEARCHES)[number]) {
    const accept = compilePathGlobs(s.include, []);
    const scored = await searchChunks(sources, { mode, k: 5, vector: mode === 'lexical' ? undefined : s.vector, text: s.text, accept });
    const complete = mode === 'lexical' ? scored : await completeSimilarity(scored, s.vector, (ids) => sources.catalog.vectorsForRows(ids, REVISION));
    return complete.map(toHit);
  }

  it.each(['hybrid', 'lexical', 'vector'] as const)('%s search gives the same hits, scores and similarities', async (mode) => {
    for (const s of SEARCHES) {
      const want = await search(embedded, mode, s);
      const got = await search(team, mode, s);
      expect(want.length, `${mode} "${s.text}"`).toBeGreaterThanOrEqual(1);
      expect(got, `${mode} "${s.text}"`).toEqual(want);
    }
  });

  it('counts the same vectors and the same chunks', async () => {
    expect(await team.vectors.count()).toBe(6);
    expect(await embedded.vectors.count()).toBe(6);
    expect(await team.catalog.chunkCount()).toBe(await embedded.catalog.chunkCount());
  });
});
