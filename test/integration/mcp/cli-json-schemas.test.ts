import { afterEach, describe, expect, it } from 'vitest';
import { runCli, spawnCli, waitForExit, waitForOutput } from '../../helpers/cli.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';
import { assertMatchesSchema } from './mcp-client.js';

const trees: TempTree[] = [];
afterEach(async () => {
  for (const t of trees.splice(0)) await t.dispose();
});

async function json(args: string[]): Promise<unknown> {
  const run = await runCli(args);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(run.stdout);
}

describe('CLI --json outputs match the published schemas', () => {
  it('index, status, search and query', async () => {
    const tree = await createTempTree(SMALL_REPO);
    trees.push(tree);
    const at = ['--cache-dir', tree.cacheDir];
    const index = await json(['index', tree.root, ...at, '--json']);
    assertMatchesSchema('index', index);
    expect(index).toMatchObject({ files: 6, removed: 0, skipped: 0 });

    const status = await json(['status', tree.root, ...at, '--json']);
    assertMatchesSchema('status', status);
    expect(status).toMatchObject({ files: 6, model: 'all-MiniLM-L6-v2', dimension: 384 });

    const search = await json(['search', 'token bucket refill', '--root', tree.root, ...at, '-k', '3', '--json']);
    assertMatchesSchema('search', search);
    expect((search as { hits: unknown[] }).hits).toHaveLength(3);

    const query = await json(['query', 'where are requests from a client throttled', '--root', tree.root, ...at, '--json']);
    assertMatchesSchema('query', query);
    expect((query as { cycles: Array<{ n: number; query: { text: string } }> }).cycles[0]).toMatchObject({ n: 1, query: { text: 'where are requests from a client throttled' } });
  });

  it('model list, model fetch and the watch event lines', async () => {
    const tree = await createTempTree(SMALL_REPO);
    trees.push(tree);
    assertMatchesSchema('modelList', await json(['model', 'list', '--json']));
    const fetched = await json(['model', 'fetch', '--json', '--offline']);
    assertMatchesSchema('modelFetch', fetched);
    expect(fetched).toMatchObject({ model: 'all-MiniLM-L6-v2', dimension: 384 });

    const child = spawnCli(['watch', tree.root, '--cache-dir', tree.cacheDir, '--json']);
    try {
      const ready = JSON.parse(await waitForOutput(child, 'stdout', /\{"event":"ready"[^\n]*\}/));
      assertMatchesSchema('watchEvent', ready);
      const line = waitForOutput(child, 'stdout', /\{"event":"updated"[^\n]*\}/);
      await tree.write('src/geo/compass.ts', 'export function bearingDegrees(from: number, to: number): number {\n  return (to - from + 360) % 360;\n}\n');
      const updated = JSON.parse(await line);
      assertMatchesSchema('watchEvent', updated);
      expect(updated).toMatchObject({ event: 'updated', changed: 1, removed: 0, files: 7 });
    } finally {
      child.kill('SIGTERM');
    }
    expect((await waitForExit(child)).code).toBe(0);
  });
});
