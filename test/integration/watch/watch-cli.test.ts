import { afterEach, describe, expect, it } from 'vitest';
import { openIndex } from '../../../src/index.js';
import { runCli, spawnCli, waitForExit, waitForOutput } from '../../helpers/cli.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';

const trees: TempTree[] = [];
afterEach(async () => {
  for (const t of trees.splice(0)) await t.dispose();
});

describe('codescout watch (child process)', () => {
  it('serves another process searching while it runs, and exits cleanly on SIGTERM', async () => {
    const tree = await createTempTree(SMALL_REPO);
    trees.push(tree);
    const child = spawnCli(['watch', tree.root, '--cache-dir', tree.cacheDir]);
    try {
      await waitForOutput(child, 'stdout', /watching .* \(6 files, \d+ chunks\)/);
      const batch = waitForOutput(child, 'stdout', /1 changed, 0 removed: 1 chunks embedded/);
      await tree.write('src/geo/compass.ts', 'export function bearingDegrees(from: number, to: number): number {\n  return (to - from + 360) % 360;\n}\n');
      await batch;
      const search = await runCli(['search', 'compass bearing in degrees between two headings', '--root', tree.root, '--cache-dir', tree.cacheDir, '-k', '3', '--json']);
      expect(search.code).toBe(0);
      expect(JSON.parse(search.stdout).hits.map((h: { symbol: string }) => h.symbol)).toContain('bearingDegrees');
    } finally {
      child.kill('SIGTERM');
    }
    expect((await waitForExit(child)).code).toBe(0);
    const index = await openIndex({ root: tree.root, cacheDir: tree.cacheDir, offline: true });
    expect((await index.verify())).toEqual([]);
    await index.close();
  });

  it('a watcher killed with SIGKILL mid-batch restarts consistent and catches up', async () => {
    const tree = await createTempTree(SMALL_REPO);
    trees.push(tree);
    const child = spawnCli(['watch', tree.root, '--cache-dir', tree.cacheDir]);
    await waitForOutput(child, 'stdout', /watching /);
    const firstBatch = waitForOutput(child, 'stdout', /changed, \d+ removed: [1-9]\d* chunks embedded/);
    for (let i = 0; i < 120; i++) {
      await tree.write(`src/bulk/b${i}.ts`, `export function bulkStep${i}(n: number): number {\n  return n * ${i} + ${i % 13};\n}\n`);
    }
    await firstBatch;
    child.kill('SIGKILL');
    await waitForExit(child);

    const index = await openIndex({ root: tree.root, cacheDir: tree.cacheDir, offline: true });
    expect((await index.verify())).toEqual([]);
    const report = await index.update();
    expect(report.files).toBe(126);
    expect((await index.verify())).toEqual([]);
    await index.close();

    const restarted = spawnCli(['watch', tree.root, '--cache-dir', tree.cacheDir, '--json']);
    const ready = JSON.parse(await waitForOutput(restarted, 'stdout', /\{"event":"ready"[^\n]*\}/));
    expect(ready).toMatchObject({ files: 126 });
    restarted.kill('SIGTERM');
    expect((await waitForExit(restarted)).code).toBe(0);
  });
});
