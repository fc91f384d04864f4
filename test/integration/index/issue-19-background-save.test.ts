import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULTS, openIndex, type CodeIndex } from '../../../src/index.js';
import { acquireWriteLock } from '../../../src/store/write-lock.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';

const trees: TempTree[] = [];
const indexes: CodeIndex[] = [];
afterEach(async () => {
  for (const i of indexes.splice(0)) await i.close();
  for (const t of trees.splice(0)) await t.dispose();
});

async function until(probe: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('issue 19 (lower finding): background HNSW saves take the write lock', () => {
  it('a debounced save waits while another writer holds the lock, and lands once it is free', async () => {
    const tree = await createTempTree(SMALL_REPO);
    trees.push(tree);
    const index = await openIndex({ root: tree.root, cacheDir: tree.cacheDir, offline: true });
    indexes.push(index);
    await index.update(); // commits to SQLite and schedules the HNSW save DEFAULTS.hnswSaveDelayMs later
    const graph = path.join(index.indexDir, 'vectors.hnsw');
    const before = existsSync(graph) ? statSync(graph).mtimeMs : null;
    const other = await acquireWriteLock(index.indexDir); // another writer, e.g. a CLI index run
    try {
      // Nothing to wait on but time: the save would have fired by now (twice its delay), and must not have.
      await new Promise((resolve) => setTimeout(resolve, DEFAULTS.hnswSaveDelayMs * 2 + 500));
      expect(existsSync(graph) ? statSync(graph).mtimeMs : null).toBe(before);
    } finally {
      await other.release();
    }
    await until(() => existsSync(graph) && statSync(graph).mtimeMs !== before, DEFAULTS.hnswSaveDelayMs * 3 + 5000, 'the save after the lock was freed');
  });
});
