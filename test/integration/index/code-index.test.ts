import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openIndex, type CodeIndex } from '../../../src/index.js';
import { IndexLockedError, IndexMismatchError } from '../../../src/errors.js';
import { acquireWriteLock } from '../../../src/store/write-lock.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';

const open: CodeIndex[] = [];
const trees: TempTree[] = [];

async function setup(): Promise<{ tree: TempTree; index: CodeIndex }> {
  const tree = await createTempTree(SMALL_REPO);
  trees.push(tree);
  const index = await openIndex({ root: tree.root, cacheDir: tree.cacheDir, offline: true });
  open.push(index);
  return { tree, index };
}

afterEach(async () => {
  for (const i of open.splice(0)) await i.close();
  for (const t of trees.splice(0)) await t.dispose();
});

describe('CodeIndex (real model, SQLite, hnswlib)', () => {
  it('answers natural-language queries with the expected symbol, in every mode that applies', async () => {
    const { index } = await setup();
    const report = await index.update();
    expect(report.files).toBe(6);
    expect(report.embedded).toBe(report.chunks);
    const cases: Array<[string, string]> = [
      ['limit how many calls a client can make', 'throttleRequests'],
      ['turn an ISO date string into a Date', 'parseIsoDate'],
      ['check a password against the stored salted hash', 'verifyPassword'],
      ['sum invoice lines and add tax', 'invoiceTotal'],
    ];
    for (const [query, symbol] of cases) {
      const hybrid = await index.search(query, { k: 3 });
      expect(hybrid.map((h) => h.symbol), query).toContain(symbol);
      const vector = await index.search(query, { k: 3, mode: 'vector' });
      expect(vector.map((h) => h.symbol), query).toContain(symbol);
    }
    const lexical = await index.search('TokenBucket refill', { k: 2, mode: 'lexical' });
    expect(lexical[0]!.path).toBe('src/util/token-bucket.ts');
    const filtered = await index.search('tokens', { k: 5, include: ['src/net/**'] });
    expect(new Set(filtered.map((h) => h.path))).toEqual(new Set(['src/net/throttle.ts']));
    expect((await index.verify())).toEqual([]);
  });

  it('hybrid search puts the exact compound identifier first even when its words are common', async () => {
    const { tree, index } = await setup();
    // Many near-twins share the words (bench, probe) and the body; the target's body is unlike the query.
    for (let i = 0; i < 30; i++) {
      await tree.write(`src/probe/p${i}.ts`, `/** bench probe ${i} */\nexport function benchProbeZulu${i}(value: number): number {\n  return benchProbeZulu(value) * ${i};\n}\n`);
    }
    await tree.write('src/probe/target.ts', 'export function benchProbeZulu(input: string[]): string[] {\n  return input.filter(Boolean).sort();\n}\n');
    await index.update();
    const hits = await index.search('benchProbeZulu', { k: 5 });
    expect(hits[0]!.symbol).toBe('benchProbeZulu');
  });

  it('a second run embeds nothing; an edit re-embeds only the changed chunk', async () => {
    const { tree, index } = await setup();
    const first = await index.update();
    const again = await index.update();
    expect(again).toMatchObject({ embedded: 0, reused: 0, filesChanged: 0, chunks: first.chunks });

    const file = path.join(tree.root, 'src/users/password.ts');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('randomBytes(16)', 'randomBytes(32)'));
    const edited = await index.update();
    expect(edited).toMatchObject({ filesChanged: 1, embedded: 1, chunks: first.chunks });
    expect((await index.verify())).toEqual([]);
  });

  it('delete and rename leave no stale hits, and a rename embeds nothing', async () => {
    const { tree, index } = await setup();
    await index.update();
    await rename(path.join(tree.root, 'src/util/dates.ts'), path.join(tree.root, 'src/util/calendar.ts'));
    const renamed = await index.update();
    expect(renamed).toMatchObject({ embedded: 0, removed: 1, filesChanged: 1 });
    expect(renamed.reused).toBeGreaterThan(0);
    const hits = await index.search('parse an ISO date string', { k: 10 });
    expect(hits.map((h) => h.path)).toContain('src/util/calendar.ts');
    expect(hits.map((h) => h.path)).not.toContain('src/util/dates.ts');

    await rm(path.join(tree.root, 'src/billing/invoice.ts'));
    const deleted = await index.update();
    expect(deleted.removed).toBe(1);
    for (const mode of ['vector', 'lexical', 'hybrid'] as const) {
      const after = await index.search('invoice total tax', { k: 20, mode });
      expect(after.map((h) => h.path)).not.toContain('src/billing/invoice.ts');
    }
    expect((await index.verify())).toEqual([]);
  });

  it('rebuilds a deleted HNSW file from SQLite with zero embeddings', async () => {
    const { tree, index } = await setup();
    const built = await index.update();
    await index.close();
    open.pop();
    await rm(path.join(index.indexDir, 'vectors.hnsw'));
    const reopened = await openIndex({ root: tree.root, cacheDir: tree.cacheDir, offline: true });
    open.push(reopened);
    expect((await reopened.stats()).vectors).toBe(built.chunks);
    const hits = await reopened.search('limit how many calls a client can make', { k: 3, mode: 'vector' });
    expect(hits.map((h) => h.symbol)).toContain('throttleRequests');
    expect((await reopened.update()).embedded).toBe(0);
    expect((await reopened.verify())).toEqual([]);
  });

  it('refuses an index written by another model and offers --rebuild', async () => {
    const { tree, index } = await setup();
    await index.update();
    const other = openIndex({ root: tree.root, cacheDir: tree.cacheDir, model: 'bge-small-en-v1.5', offline: true });
    await expect(other).rejects.toBeInstanceOf(IndexMismatchError);
    await expect(other).rejects.toThrow(/all-MiniLM-L6-v2 \(384d\).*--rebuild/);
  });

  it('a second writer gets a clear lock error naming the holder', async () => {
    const { index } = await setup();
    const lock = await acquireWriteLock(index.indexDir);
    try {
      const update = index.update();
      await expect(update).rejects.toBeInstanceOf(IndexLockedError);
      await expect(update).rejects.toThrow(String(process.pid));
    } finally {
      await lock.release();
    }
    expect((await index.update()).files).toBe(6);
  });
});
