import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { CHUNKER_VERSION } from '../../../src/chunk/chunker-version.js';
import { openIndex, type CodeIndex } from '../../../src/index.js';
import { catalogPath } from '../../../src/store/catalog-open.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';

// An upgrade that changes the chunker must not leave unchanged files with the old chunks: the index records the
// chunker version of its last full pass, and a pass under another version chunks every file again, embedding only
// texts without a cached vector. Real files, real tree-sitter, real model, real SQLite.

const trees: TempTree[] = [];
const indexes: CodeIndex[] = [];
afterEach(async () => {
  for (const i of indexes.splice(0)) await i.close();
  for (const t of trees.splice(0)) await t.dispose();
});

/** Plays an older chunker: renames the throttle's symbol chunk in place, as another chunker might have cut it. */
function ageChunks(index: CodeIndex): void {
  const db = new Database(catalogPath(index.indexDir));
  try {
    const changed = db.prepare("UPDATE chunks SET symbol = 'cutByAnOlderChunker' WHERE symbol = 'throttleRequests'").run().changes;
    expect(changed).toBe(1);
  } finally {
    db.close();
  }
}

const symbols = async (index: CodeIndex): Promise<string[]> =>
  (await index.search('throttle requests per client', { k: 20, mode: 'lexical' })).map((h) => h.symbol ?? '');

describe('the chunker version recorded with the index', () => {
  it('a full pass under another chunker version chunks unchanged files again and embeds nothing new', async () => {
    const tree = await createTempTree(SMALL_REPO);
    trees.push(tree);
    const index = await openIndex({ root: tree.root, cacheDir: tree.cacheDir, offline: true });
    indexes.push(index);
    const first = await index.update();
    expect(await index.store.catalog.chunkerVersion()).toBe(CHUNKER_VERSION);

    // Same version: unchanged files are skipped, so old chunks would stay (what the version is for).
    ageChunks(index);
    expect(await index.update()).toMatchObject({ filesChanged: 0 });
    expect(await symbols(index)).toContain('cutByAnOlderChunker');

    // Another version recorded: every file is chunked again; the same texts keep their cached vectors.
    await index.store.catalog.setChunkerVersion('0');
    const again = await index.update();
    expect(again).toMatchObject({ filesChanged: first.files, embedded: 0, removed: 0 });
    expect(await symbols(index)).not.toContain('cutByAnOlderChunker');
    expect(await symbols(index)).toContain('throttleRequests');
    expect(await index.store.catalog.chunkerVersion()).toBe(CHUNKER_VERSION);
    expect(index.notes.some((n) => n.includes('chunked by another codescout version (chunker 0'))).toBe(true);
    expect(await index.verify()).toEqual([]);

    expect(await index.update()).toMatchObject({ filesChanged: 0, embedded: 0 });
  });
});
