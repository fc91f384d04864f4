import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openIndex } from '../../../src/index.js';
import { runCli } from '../../helpers/cli.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';
import { startMcp } from '../mcp/mcp-client.js';

const trees: TempTree[] = [];
afterEach(async () => {
  for (const t of trees.splice(0)) await t.dispose();
});

/** SMALL_REPO plus a codescout.json; the tree's own cache dir is not used (the file names one). */
async function configured(settings: Record<string, unknown>): Promise<TempTree> {
  const tree = await createTempTree(SMALL_REPO);
  trees.push(tree);
  await writeFile(path.join(tree.root, 'codescout.json'), JSON.stringify(settings));
  return tree;
}

const SETTINGS = { include: ['src/**'], exclude: ['src/billing/**'], cacheDir: '../from-file' };
const EXPECTED = ['src/net/throttle.ts', 'src/users/password.ts', 'src/util/dates.ts', 'src/util/token-bucket.ts'];

describe('codescout.json (issue 15): one configuration file read by every command and the library', () => {
  it('the library takes include, exclude and cacheDir from it', async () => {
    const tree = await configured(SETTINGS);
    const index = await openIndex({ root: tree.root, offline: true });
    try {
      expect(index.config.cacheDir).toBe(path.resolve(tree.root, '../from-file'));
      expect(index.config.include).toEqual(['src/**']);
      await index.update();
      expect((await index.store.catalog.listFiles()).map((f) => f.path).sort()).toEqual(EXPECTED);
    } finally {
      await index.close();
    }
  });

  it('an include that names a default-ignored folder indexes it', async () => {
    const tree = await configured({ include: ['build/**', 'src/util/**'] });
    await tree.write('build/generated-client.ts', 'export function fetchInvoices(): string[] { return []; }\n');
    const index = await openIndex({ root: tree.root, cacheDir: tree.cacheDir, offline: true });
    try {
      await index.update();
      expect((await index.store.catalog.listFiles()).map((f) => f.path).sort()).toEqual(['build/generated-client.ts', 'src/util/dates.ts', 'src/util/token-bucket.ts']);
    } finally {
      await index.close();
    }
  });

  it('index, status and mcp honour it, and a flag overrides it', async () => {
    const tree = await configured(SETTINGS);
    const built = await runCli(['index', tree.root, '--json']);
    expect(built.code, built.stderr).toBe(0);
    expect(JSON.parse(built.stdout)).toMatchObject({ files: EXPECTED.length });
    const status = await runCli(['status', tree.root, '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ files: EXPECTED.length, indexDir: expect.stringContaining(path.resolve(tree.root, '../from-file')) });

    const mcp = await startMcp({ ...tree, cacheDir: path.resolve(tree.root, '../from-file') }, ['--no-watch']);
    try {
      const reindex = await mcp.call('reindex');
      expect(reindex.structuredContent).toMatchObject({ files: EXPECTED.length, filesChanged: 0, removed: 0 });
    } finally {
      await mcp.close();
    }

    const flagged = await runCli(['index', tree.root, '--include', 'src/util/**', '--json']);
    expect(JSON.parse(flagged.stdout)).toMatchObject({ files: 2 });
  });

  it('a bad value names the file and the key: unknown model, unknown key, wrong type', async () => {
    for (const [settings, message] of [
      [{ model: 'no-such-model' }, /codescout\.json: model "no-such-model" is unknown\. Known models: all-MiniLM-L6-v2/],
      [{ includes: ['src/**'] }, /codescout\.json: unknown key "includes"\. Known keys: \$schema, include, exclude, model, cacheDir, secrets/],
      [{ include: 'src/**' }, /codescout\.json: include must be an array of glob strings/],
    ] as const) {
      const tree = await configured(settings);
      const run = await runCli(['index', tree.root, '--json']);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
    }
  });
});
