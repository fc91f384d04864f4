import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openIndex, type CodeIndex, type OpenIndexOptions } from '../../../../src/index.js';
import type { OverlayCatalog } from '../../../../src/store/overlay/overlay-catalog.js';
import { PostgresCatalog } from '../../../../src/store/postgres/postgres-catalog.js';
import { runCli } from '../../../helpers/cli.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../../helpers/fixture-tree.js';
import { isPostgresSkipped, startPostgres, type PostgresServer } from '../../../support/postgres-server.js';

// The globs `codescout index --store ... --exclude/--include` was given live with the namespace, so that a developer's
// local layer on another machine (no filters.json there) indexes what the shared index holds, not every file the
// globs left out. Real PostgreSQL, real model, real CLI child for the writer.

const NS = { repo: 'fixtures/globs', ref: 'main' } as const;
const LEFT_OUT = 'src/billing/invoice.ts';

describe.skipIf(isPostgresSkipped)('globs stored with a shared namespace (real server, real model)', () => {
  let server: PostgresServer;
  let tree: TempTree;
  const elsewhere = (): string => path.join(tree.cacheDir, 'another-machine');
  const openElsewhere = (more: Partial<OpenIndexOptions>): Promise<CodeIndex> =>
    openIndex({ root: tree.root, cacheDir: elsewhere(), offline: true, store: server.connectionString, ...NS, ...more });
  const sharedPaths = async (): Promise<string[]> => {
    const catalog = await PostgresCatalog.open({ connectionString: server.connectionString, ...NS, mode: 'read' });
    try {
      return (await catalog.listFiles()).map((f) => f.path).sort();
    } finally {
      await catalog.close();
    }
  };
  const indexCli = (...more: string[]) =>
    runCli(['index', tree.root, '--cache-dir', tree.cacheDir, '--store', server.connectionString, '--repo', NS.repo, '--ref', NS.ref, '--json', ...more]);

  beforeAll(async () => {
    server = await startPostgres();
    tree = await createTempTree(SMALL_REPO);
    const run = await indexCli('--exclude', 'src/billing/**');
    expect(run.code, run.stderr).toBe(0);
  });
  afterAll(async () => {
    await tree?.dispose();
    await server?.stop();
  });

  it('a developer layer on another machine keeps to the namespace globs: the excluded file is not indexed locally', async () => {
    expect(await sharedPaths()).not.toContain(LEFT_OUT);
    const index = await openElsewhere({ localEdits: true });
    try {
      expect(index.storedFilters).toEqual({ include: [], exclude: ['src/billing/**'] });
      const report = await index.update();
      expect(report).toMatchObject({ filesChanged: 0, embedded: 0 });
      expect(await (index.store.catalog as OverlayCatalog).local.listFiles()).toEqual([]);
      expect((await index.search('sum the lines of an invoice and add tax', { k: 10 })).map((h) => h.path)).not.toContain(LEFT_OUT);
    } finally {
      await index.close();
    }
  });

  it('a writer on a fresh machine without globs indexes with the namespace globs; --reset-filters forgets them', async () => {
    const writer = await openElsewhere({ storeRole: 'writer' });
    try {
      expect(writer.storedFilters).toEqual({ include: [], exclude: ['src/billing/**'] });
      expect(await writer.update()).toMatchObject({ removed: 0, filesChanged: 0 });
    } finally {
      await writer.close();
    }
    expect(await sharedPaths()).not.toContain(LEFT_OUT);

    const reset = await indexCli('--reset-filters');
    expect(reset.code, reset.stderr).toBe(0);
    expect(await sharedPaths()).toContain(LEFT_OUT);
    const reader = await openElsewhere({});
    try {
      expect(reader.storedFilters).toBeNull();
    } finally {
      await reader.close();
    }
  });
});
