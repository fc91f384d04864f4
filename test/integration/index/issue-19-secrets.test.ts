import { readdirSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inspectFile } from '../../../src/discover/file-guards.js';
import { openIndex, type CodeIndex } from '../../../src/index.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';
import { cleanFixtures, secretFixtures, type SecretFixture } from '../../helpers/secret-fixtures.js';

// Issue 19, finding 6, end to end (real model, SQLite, hnswlib): secrets never reach the catalog, the report names
// each one's rule, codescout.json can allow files back, a secret written between discovery and indexing is caught
// on the bytes stored, and the index is private to its owner.

const open: CodeIndex[] = [];
const trees: TempTree[] = [];
afterEach(async () => {
  for (const i of open.splice(0)) await i.close();
  for (const t of trees.splice(0)) await t.dispose();
});

async function openAt(tree: TempTree): Promise<CodeIndex> {
  const index = await openIndex({ root: tree.root, cacheDir: tree.cacheDir, offline: true });
  open.push(index);
  return index;
}

const secretsOf = (skipped: readonly { path: string; reason: string }[]) => skipped.filter((s) => s.reason.startsWith('secret: '));
const expected = (fixtures: readonly SecretFixture[]) => fixtures.map(({ path: p, reason }) => ({ path: p, reason })).sort((a, b) => (a.path < b.path ? -1 : 1));

describe('issue 19: secrets stay out of the index', () => {
  it('skips every secret fixture with its rule, indexes the rest, and codescout.json brings allowed files back', async () => {
    const fixtures = secretFixtures();
    const tree = await createTempTree({ ...SMALL_REPO, ...cleanFixtures(), ...Object.fromEntries(fixtures.map((f) => [f.path, f.content])) });
    trees.push(tree);
    let index = await openAt(tree);
    const report = await index.update();
    expect(secretsOf(report.skipped)).toEqual(expected(fixtures));
    const indexed = (await index.store.catalog.listFiles()).map((f) => f.path).sort();
    expect(indexed).toEqual(Object.keys({ ...SMALL_REPO, ...cleanFixtures() }).sort());
    expect((await index.search('stripe django', { k: 20, mode: 'lexical' })).map((h) => h.path)).toEqual([]);

    await writeFile(path.join(tree.root, 'codescout.json'), JSON.stringify({ secrets: { allow: ['deploy/**'] } }));
    await index.close();
    index = await openAt(tree);
    const allowed = await index.update();
    expect(secretsOf(allowed.skipped)).toEqual(expected(fixtures.filter((f) => !f.path.startsWith('deploy/'))));
    expect((await index.search('stripe', { k: 5, mode: 'lexical' })).map((h) => h.path).sort()).toEqual(['deploy/billing.yaml', 'deploy/secrets.yaml']);

    // Without the allow-list the files already indexed leave the index on the next pass.
    await writeFile(path.join(tree.root, 'codescout.json'), '{}');
    await index.close();
    index = await openAt(tree);
    const removed = await index.update();
    expect(removed.removed).toBe(2);
    expect(await index.search('stripe', { k: 5, mode: 'lexical' })).toEqual([]);
  });

  it('a secret written after discovery inspected the file is caught on the bytes the indexer reads', async () => {
    const tree = await createTempTree(SMALL_REPO);
    trees.push(tree);
    const index = await openAt(tree);
    await index.update();
    await tree.write('src/late.ts', 'export const late = 1;\n');
    const clean = await inspectFile({ ...index.discovery, absPath: path.join(tree.root, 'src/late.ts'), relPath: 'src/late.ts' });
    if (!('file' in clean)) throw new Error(`expected an indexable file, got ${clean.skipped.reason}`);
    const stripe = secretFixtures().find((f) => f.path === 'deploy/billing.yaml')!.content.split('key: ')[1]!.trim();
    await tree.write('src/late.ts', `export const late = '${stripe}';\n`);
    const report = await index.applyChanges({ files: [clean.file], removed: [] });
    expect(report.skipped).toEqual([{ path: 'src/late.ts', reason: 'secret: Stripe live key (line 1)' }]);
    expect((await index.store.catalog.getFile('src/late.ts'))).toBeUndefined();
  });

  it('index files are 0600 and the cache dir and index folder 0700', async () => {
    const previous = process.umask(0o022);
    try {
      const tree = await createTempTree(SMALL_REPO);
      trees.push(tree);
      const index = await openAt(tree);
      await index.update();
      await index.flush();
      const mode = (p: string): string => (statSync(p).mode & 0o777).toString(8);
      const names = readdirSync(index.indexDir);
      expect(names.filter((n) => mode(path.join(index.indexDir, n)) !== '600')).toEqual([]);
      expect(names).toContain('vectors.hnsw');
      expect([mode(tree.cacheDir), mode(index.indexDir)]).toEqual(['700', '700']);
    } finally {
      process.umask(previous);
    }
  });
});
