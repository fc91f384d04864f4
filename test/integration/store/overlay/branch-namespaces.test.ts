import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../src/errors.js';
import { openIndex, type OpenIndexOptions } from '../../../../src/index.js';
import { HIDDEN_FILE_HASH } from '../../../../src/store/overlay/overlay-catalog.js';
import { PostgresCatalog } from '../../../../src/store/postgres/postgres-catalog.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../../helpers/fixture-tree.js';
import { COMPASS, EDITED_THROTTLE, THROTTLE } from './edits.js';
import { isPostgresSkipped, startPostgres, type PostgresServer } from '../../../support/postgres-server.js';

// Issue 18: a branch indexed over its base (`--base-ref main`) stores only the files that differ from it, and reads
// as the whole branch: its own files, the base's others, none of the files it deleted. Real PostgreSQL, real model.

const REPO = 'fixtures/small';

describe.skipIf(isPostgresSkipped)('branch namespaces over a base in the shared store (real server, real model)', () => {
  let server: PostgresServer;
  let tree: TempTree;
  const options = (ref: string, more: Partial<OpenIndexOptions> = {}): OpenIndexOptions =>
    ({ root: tree.root, cacheDir: tree.cacheDir, offline: true, store: server.connectionString, repo: REPO, ref, ...more });
  const indexAs = async (ref: string, more: Partial<OpenIndexOptions> = {}) => {
    const index = await openIndex(options(ref, { storeRole: 'writer', ...more }));
    try {
      return await index.update();
    } finally {
      await index.close();
    }
  };
  /** The files a namespace itself holds (hidden ones marked), and its chunk count. */
  const stored = async (ref: string): Promise<{ files: string[]; chunks: number }> => {
    const catalog = await PostgresCatalog.open({ connectionString: server.connectionString, repo: REPO, ref, mode: 'read' });
    try {
      const files = (await catalog.listFiles()).map((f) => (f.contentHash === HIDDEN_FILE_HASH ? `${f.path} (hidden)` : f.path));
      return { files, chunks: await catalog.chunkCount() };
    } finally {
      await catalog.close();
    }
  };

  beforeAll(async () => {
    server = await startPostgres();
    tree = await createTempTree(SMALL_REPO);
    await indexAs('main');
    await tree.write(THROTTLE, EDITED_THROTTLE);
    await tree.write('src/geo/compass.ts', COMPASS);
    await rm(path.join(tree.root, 'src/billing/invoice.ts'));
  });
  afterAll(async () => {
    await tree?.dispose();
    await server?.stop();
  });

  it('stores only what differs from the base, embeds only new text, and reads as the whole branch', async () => {
    const main = await stored('main');
    const report = await indexAs('feature', { baseRef: 'main' });
    expect(report).toMatchObject({ files: 6, filesChanged: 2, removed: 1, embedded: 2 });
    const feature = await stored('feature');
    expect(feature.files).toEqual(['src/billing/invoice.ts (hidden)', 'src/geo/compass.ts', THROTTLE]);
    expect(feature.chunks).toBeLessThan(main.chunks / 2);
    expect(await stored('main')).toEqual(main);

    // A reader needs no --base-ref: the namespace remembers its base.
    const reader = await openIndex(options('feature'));
    try {
      for (const mode of ['lexical', 'vector', 'hybrid'] as const) {
        expect((await reader.search('drain a leaky bucket of queued requests', { k: 3, mode }))[0], mode).toMatchObject({ path: THROTTLE, symbol: 'drainLeakyBucket' });
        expect((await reader.search('compass heading from degrees', { k: 3, mode }))[0]?.path, mode).toBe('src/geo/compass.ts');
        expect((await reader.search('parse an ISO date', { k: 3, mode }))[0]?.path, mode).toBe('src/util/dates.ts');
        expect((await reader.search('sum the lines of an invoice and add tax', { k: 10, mode })).map((h) => h.path), mode).not.toContain('src/billing/invoice.ts');
        expect((await reader.search('throttleRequests', { k: 10, mode })).filter((h) => h.symbol === 'throttleRequests'), mode).toHaveLength(1);
      }
      expect((await reader.stats()).files).toBe(6);
      expect(await reader.verify()).toEqual([]);
      const result = await (await import('../../../../src/index.js')).retrieve(reader, { text: 'where are queued requests drained from a leaky bucket' });
      expect([...result.results, ...result.related][0]?.path).toBe(THROTTLE);
    } finally {
      await reader.close();
    }
    // The main namespace still reads as main.
    const mainReader = await openIndex(options('main'));
    try {
      expect((await mainReader.search('sum the lines of an invoice and add tax', { k: 1 }))[0]?.path).toBe('src/billing/invoice.ts');
    } finally {
      await mainReader.close();
    }
  });

  it('a developer\'s local edits stand on the branch, which stands on main', async () => {
    await tree.write('src/users/password.ts', `${SMALL_REPO['src/users/password.ts']}\n/** Rotates the pepper mixed into password hashes. */\nexport function rotatePepper(): string {\n  return 'new-pepper';\n}\n`);
    const dev = await openIndex(options('feature', { localEdits: true }));
    try {
      await dev.update();
      expect((await dev.search('rotate the pepper of password hashes', { k: 1 }))[0]).toMatchObject({ path: 'src/users/password.ts', symbol: 'rotatePepper' });
      expect((await dev.search('compass heading from degrees', { k: 1 }))[0]?.path).toBe('src/geo/compass.ts');
      expect((await dev.search('token bucket refill', { k: 1 }))[0]?.path).toBe('src/util/token-bucket.ts');
      expect(await dev.verify()).toEqual([]);
    } finally {
      await dev.close();
      await tree.write('src/users/password.ts', SMALL_REPO['src/users/password.ts']!);
    }
    expect((await stored('feature')).files).not.toContain('src/users/password.ts');
  });

  it('a file back at the base content leaves the branch; another base needs --rebuild; a missing base is named', async () => {
    await tree.write(THROTTLE, SMALL_REPO[THROTTLE]!);
    await indexAs('feature');
    expect((await stored('feature')).files).toEqual(['src/billing/invoice.ts (hidden)', 'src/geo/compass.ts']);

    await indexAs('release', { baseRef: 'main' });
    await expect(indexAs('release', { baseRef: 'feature' })).rejects.toThrow(/was indexed over main; to index it over feature, add --rebuild/);
    await indexAs('release', { baseRef: 'feature', rebuild: true });
    expect((await stored('release')).files).toEqual([]); // the tree is the feature branch exactly

    const missing = indexAs('hotfix', { baseRef: 'nobody-built-this' });
    await expect(missing).rejects.toBeInstanceOf(ConfigError);
    await expect(missing).rejects.toThrow(/branch of fixtures\/small@nobody-built-this, which has no index/);
    await expect(indexAs('main', { baseRef: 'main' })).rejects.toThrow(/cannot stand on fixtures\/small@main: the bases loop \(main -> main\)/);
    await expect(indexAs('main', { baseRef: 'release' })).rejects.toThrow(/the bases loop \(main -> release -> feature -> main\)/);
    await indexAs('standalone');
    await expect(indexAs('main', { baseRef: 'standalone' })).rejects.toThrow(/was indexed as a whole index; to index it over standalone, add --rebuild/);
    // A mistyped base with --rebuild is refused before anything is emptied.
    const before = await stored('feature');
    await expect(indexAs('feature', { baseRef: 'mian', rebuild: true })).rejects.toThrow(/which has no index/);
    expect(await stored('feature')).toEqual(before);
  });
});
