import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openIndex, type CodeIndex } from '../../../src/index.js';
import { createTempTree, type TempTree } from '../../helpers/fixture-tree.js';

const swiftSource = readFileSync(fileURLToPath(new URL('../../fixtures/chunk/TokenStore.swift.txt', import.meta.url)), 'utf8');
const open: CodeIndex[] = [];
const trees: TempTree[] = [];

afterEach(async () => {
  for (const i of open.splice(0)) await i.close();
  for (const t of trees.splice(0)) await t.dispose();
});

describe('a language whose grammar is WASM (Swift)', () => {
  it('is indexed by symbol: the indexer prepares the grammar before chunking', async () => {
    const tree = await createTempTree({ 'Sources/Auth/TokenStore.swift': swiftSource });
    trees.push(tree);
    const index = await openIndex({ root: tree.root, cacheDir: tree.cacheDir, offline: true });
    open.push(index);
    const report = await index.update();
    expect(report.files).toBe(1);
    expect(report.skipped).toEqual([]);
    const hits = await index.search('TokenStore signOut', { k: 3, mode: 'lexical' });
    expect(hits[0]).toMatchObject({ path: 'Sources/Auth/TokenStore.swift', symbol: 'signOut', kind: 'method' });
  });
});
