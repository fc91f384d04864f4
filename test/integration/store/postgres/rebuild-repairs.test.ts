import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openIndex, type OpenIndexOptions } from '../../../../src/index.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../../helpers/fixture-tree.js';
import { isPostgresSkipped, startPostgres, withClient, type PostgresServer } from '../../../support/postgres-server.js';

// Issue 18: what `status --verify` reports on the database side, `index --rebuild` repairs (all but a missing
// pgvector, which is the database owner's to install): a dropped HNSW index, chunks whose cached vectors are gone
// or of the wrong length. Real PostgreSQL, real model.

describe.skipIf(isPostgresSkipped)('index --rebuild repairs the PostgreSQL side of what --verify reports (real server, real model)', () => {
  let server: PostgresServer;
  let tree: TempTree;
  const options = (more: Partial<OpenIndexOptions> = {}): OpenIndexOptions =>
    ({ root: tree.root, cacheDir: tree.cacheDir, offline: true, store: server.connectionString, repo: 'fixtures/small', ref: 'main', ...more });
  const verify = async (): Promise<string[]> => {
    const index = await openIndex(options());
    try {
      return await index.verify();
    } finally {
      await index.close();
    }
  };
  const write = async (more: Partial<OpenIndexOptions> = {}) => {
    const index = await openIndex(options({ storeRole: 'writer', ...more }));
    try {
      return await index.update();
    } finally {
      await index.close();
    }
  };

  beforeAll(async () => {
    server = await startPostgres();
    tree = await createTempTree(SMALL_REPO);
  });
  afterAll(async () => {
    await tree?.dispose();
    await server?.stop();
  });

  it('a dropped HNSW index and lost or wrong cached vectors are reported, then repaired by a rebuild', async () => {
    await write();
    expect(await verify()).toEqual([]);
    await withClient(server.connectionString, async (c) => {
      await c.query('DROP INDEX embeddings_hnsw_384');
      // Two chunks lose their cached vector; one gets a vector of the wrong length.
      const hashes = (await c.query('SELECT DISTINCT text_hash FROM chunks ORDER BY text_hash LIMIT 3')).rows.map((r: { text_hash: string }) => r.text_hash);
      await c.query('DELETE FROM embeddings WHERE text_hash = ANY($1)', [hashes.slice(0, 2)]);
      await c.query("UPDATE embeddings SET dims = 3, vector = '[1,0,0]' WHERE text_hash = $1", [hashes[2]]);
    });
    const problems = await verify();
    expect(problems).toEqual(expect.arrayContaining([
      expect.stringContaining('no HNSW index for 384-dimensional vectors'),
      expect.stringMatching(/2 chunks of .* have no cached vector and none queued/),
      expect.stringMatching(/1 cached vectors used by .* are not 384-dimensional/),
    ]));

    const report = await write({ rebuild: true });
    expect(report.files).toBe(6);
    expect(report.embedded).toBe(3); // only the three damaged texts: every other vector comes from the shared cache
    expect(await verify()).toEqual([]);
    const index = await openIndex(options());
    try {
      expect((await index.search('token bucket refill', { k: 1, mode: 'vector' }))[0]?.path).toBe('src/util/token-bucket.ts');
    } finally {
      await index.close();
    }
  });
});
