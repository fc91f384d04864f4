import { utimes } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openIndex } from '../../../src/index.js';
import { createTempTree, type TempTree } from '../../helpers/fixture-tree.js';

// A pass over many files reads the catalog's file rows in one list, not one look-up per file: against a database
// server every look-up is a round trip. (Real SQLite store, real model; the PostgreSQL store shares the indexer.)

const FILES = 40;
const trees: TempTree[] = [];
afterEach(async () => {
  for (const t of trees.splice(0)) await t.dispose();
});

describe('the indexer reads file rows in one list for a pass over many files', () => {
  it('a full pass over 40 touched files asks for no single file row; a batch of two asks for each', async () => {
    const files = Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`src/f${i}.ts`, `export const value${i} = ${i};\n`]));
    const tree = await createTempTree(files);
    trees.push(tree);
    const index = await openIndex({ root: tree.root, cacheDir: tree.cacheDir, offline: true });
    try {
      await index.update();
      const later = new Date(Date.now() + 60_000);
      for (const rel of Object.keys(files)) await utimes(path.join(tree.root, rel), later, later);
      const catalog = index.store.catalog;
      const getFile = vi.spyOn(catalog, 'getFile');
      const listFiles = vi.spyOn(catalog, 'listFiles');
      const touchFile = vi.spyOn(catalog, 'touchFile');
      const report = await index.update();
      expect(report).toMatchObject({ files: FILES, filesChanged: 0, embedded: 0 });
      expect(touchFile).toHaveBeenCalledTimes(FILES); // every file was looked at: its mtime moved, its bytes did not
      expect(getFile).not.toHaveBeenCalled();
      expect(listFiles.mock.calls.length).toBeLessThanOrEqual(2); // the pass's removal check and its file rows

      getFile.mockClear();
      await tree.write('src/f1.ts', 'export const value1 = 100;\n');
      await tree.write('src/f2.ts', 'export const value2 = 200;\n');
      const abs = (rel: string) => ({ path: rel, absPath: path.join(tree.root, rel), language: 'typescript' as const });
      const { stat } = await import('node:fs/promises');
      const batch = await Promise.all(['src/f1.ts', 'src/f2.ts'].map(async (rel) => {
        const s = await stat(path.join(tree.root, rel));
        return { ...abs(rel), sizeBytes: s.size, mtimeMs: s.mtimeMs };
      }));
      const small = await index.applyChanges({ files: batch, removed: [] });
      expect(small.filesChanged).toBe(2);
      expect(getFile).toHaveBeenCalledTimes(2);
    } finally {
      await index.close();
    }
  });
});
