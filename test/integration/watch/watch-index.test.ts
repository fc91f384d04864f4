import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openIndex, type CodeIndex } from '../../../src/index.js';
import { watchIndex, type IndexWatcher } from '../../../src/watch/watch-index.js';
import { eventually, nextBatch } from '../../helpers/events.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function startWatching(files: Record<string, string> = SMALL_REPO): Promise<{ tree: TempTree; index: CodeIndex; watcher: IndexWatcher }> {
  const tree = await createTempTree(files);
  cleanup.push(() => tree.dispose());
  const index = await openIndex({ root: tree.root, cacheDir: tree.cacheDir, offline: true });
  cleanup.push(() => index.close());
  const watcher = watchIndex(index);
  cleanup.push(() => watcher.close());
  await watcher.ready;
  return { tree, index, watcher };
}

const symbols = async (index: CodeIndex, query: string, k = 5): Promise<string[]> =>
  (await index.search(query, { k })).map((h) => `${h.path}#${h.symbol}`);

/** Every chunk of an index, for comparing it with a fresh full build. */
async function chunkSet(index: CodeIndex): Promise<string[]> {
  const { catalog } = index.store;
  return (await catalog.getChunks(await catalog.liveRowIds())).map((c) => `${c.path}:${c.startLine}-${c.endLine}:${c.symbol}:${c.hash}`).sort();
}

describe('watchIndex (real chokidar, real file system, real model)', () => {
  it('makes a new function searchable, forgets its old text after an edit, and drops a deleted file', async () => {
    const { tree, index, watcher } = await startWatching();
    expect((await index.stats()).files).toBe(6);

    let batch = nextBatch(watcher, (b) => b.report.embedded > 0);
    await tree.write('src/geo/distance.ts', 'export function haversineKm(a: [number, number], b: [number, number]): number {\n  const r = 6371;\n  return r * Math.acos(Math.sin(a[0]) * Math.sin(b[0]));\n}\n');
    await batch;
    expect(await symbols(index, 'great circle distance between two coordinates in kilometres', 3)).toContain('src/geo/distance.ts#haversineKm');

    batch = nextBatch(watcher, (b) => b.changed >= 1);
    await tree.write('src/geo/distance.ts', 'export function slugifyTitle(title: string): string {\n  return title.toLowerCase().replace(/[^a-z0-9]+/g, "-");\n}\n');
    await batch;
    const afterEdit = await index.search('haversine distance kilometres', { k: 10 });
    expect(afterEdit.map((h) => h.symbol)).not.toContain('haversineKm');
    expect(await symbols(index, 'turn a title into a url slug', 3)).toContain('src/geo/distance.ts#slugifyTitle');

    batch = nextBatch(watcher, (b) => b.removed >= 1);
    await tree.remove('src/geo/distance.ts');
    await batch;
    expect((await index.search('slug title', { k: 20 })).map((h) => h.path)).not.toContain('src/geo/distance.ts');
    expect((await index.verify())).toEqual([]);
  });

  it('a renamed folder keeps its chunks under the new paths with zero embeddings', async () => {
    const { tree, index, watcher } = await startWatching();
    const embeddedBefore = (await index.stats()).cachedVectors;
    await rename(path.join(tree.root, 'src/util'), path.join(tree.root, 'src/helpers'));
    const batches: number[] = [];
    watcher.on('updated', (b) => batches.push(b.report.embedded));
    const paths = await eventually(
      async () => (await index.store.catalog.listFiles()).map((f) => f.path),
      (p) => p.includes('src/helpers/dates.ts') && p.includes('src/helpers/token-bucket.ts') && !p.some((x) => x.startsWith('src/util/')),
    );
    expect(paths).toHaveLength(6);
    await watcher.idle();
    expect(batches.reduce((s, n) => s + n, 0)).toBe(0);
    expect((await index.stats()).cachedVectors).toBe(embeddedBefore);
    expect(await symbols(index, 'parse an ISO date string', 3)).toContain('src/helpers/dates.ts#parseIsoDate');
    expect((await index.verify())).toEqual([]);
  });

  it('absorbs a burst of 300 writes in a few batches and ends equal to a fresh full index', async () => {
    const { tree, index, watcher } = await startWatching();
    const batches: number[] = [];
    watcher.on('updated', (b) => batches.push(b.changed));
    await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        tree.write(`src/gen/g${i % 10}/item${i}.ts`, `export const item${i} = { id: ${i}, label: 'item number ${i}' };\n`),
      ),
    );
    await eventually(async () => (await index.stats()).files, (n) => n === 306, 60_000);
    await watcher.idle();
    expect(batches.length).toBeGreaterThan(0);
    expect(batches.length).toBeLessThanOrEqual(20);
    expect(batches.reduce((s, n) => s + n, 0)).toBe(300);

    const fresh = await openIndex({ root: tree.root, cacheDir: path.join(tree.cacheDir, 'fresh'), offline: true });
    cleanup.push(() => fresh.close());
    await fresh.update();
    expect(await chunkSet(index)).toEqual(await chunkSet(fresh));
  });

  it('removes the chunks of a folder that a .gitignore edit now ignores', async () => {
    const { tree, index, watcher } = await startWatching();
    const batch = nextBatch(watcher, (b) => b.fullPass);
    await writeFile(path.join(tree.root, '.gitignore'), 'src/billing/\n');
    await batch;
    expect((await index.store.catalog.listFiles()).map((f) => f.path)).not.toContain('src/billing/invoice.ts');
    expect((await index.search('invoice total tax', { k: 20 })).map((h) => h.path)).not.toContain('src/billing/invoice.ts');
  });

  it('catches up on start with changes made while nobody watched', async () => {
    const tree = await createTempTree(SMALL_REPO);
    cleanup.push(() => tree.dispose());
    const first = await openIndex({ root: tree.root, cacheDir: tree.cacheDir, offline: true });
    await first.update();
    await first.close();
    await mkdir(path.join(tree.root, 'src/late'), { recursive: true });
    await writeFile(path.join(tree.root, 'src/late/clock.ts'), 'export function nowMillis(): number {\n  return Date.now();\n}\n');
    await rm(path.join(tree.root, 'src/billing/invoice.ts'));
    const index = await openIndex({ root: tree.root, cacheDir: tree.cacheDir, offline: true });
    cleanup.push(() => index.close());
    const watcher = watchIndex(index);
    cleanup.push(() => watcher.close());
    await watcher.ready;
    const paths = (await index.store.catalog.listFiles()).map((f) => f.path);
    expect(paths).toContain('src/late/clock.ts');
    expect(paths).not.toContain('src/billing/invoice.ts');
  });
});
