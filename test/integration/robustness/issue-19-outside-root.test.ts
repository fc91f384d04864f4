import { execFileSync } from 'node:child_process';
import { readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openIndex } from '../../../src/index.js';
import { watchIndex } from '../../../src/watch/watch-index.js';
import { nextBatch } from '../../helpers/events.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';
import { indexDirOf } from '../../helpers/robustness.js';
import { errorText, startMcp, structured, type McpChild } from '../mcp/mcp-client.js';

// Issue 19, finding 1: files outside the root were read through symlinks. `reindex` checked the path's text
// (and lstat follows every link but the last), the watcher followed links created after it started, and
// retrieve_context re-read result files at query time through a link swapped in since indexing.

const SECRET = 'zqxIssue19PrivateKeyMaterial';
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

/** SMALL_REPO plus a secret file beside the root (in `<base>/outside/`), never to be read. */
async function treeWithSecretBeside(): Promise<{ tree: TempTree; secretPath: string }> {
  const tree = await createTempTree(SMALL_REPO);
  cleanup.push(() => tree.dispose());
  const secretPath = path.join(path.dirname(tree.root), 'outside', 'secret.ts');
  await tree.write('../outside/secret.ts', Array.from({ length: 40 }, (_, i) => `export const ${SECRET}${i} = 'BEGIN PRIVATE KEY ${SECRET}';\n`).join(''));
  return { tree, secretPath };
}
async function serve(tree: TempTree, extra: readonly string[]): Promise<McpChild> {
  const mcp = await startMcp(tree, extra);
  cleanup.push(() => mcp.close());
  return mcp;
}
/** Raw bytes of the catalog and its WAL: what is stored, whatever the tables say. */
async function storedBytes(t: TempTree): Promise<string> {
  const dir = indexDirOf(t.cacheDir, t.root);
  const parts = await Promise.all(['catalog.sqlite', 'catalog.sqlite-wal'].map((f) => readFile(path.join(dir, f)).catch(() => Buffer.alloc(0))));
  return Buffer.concat(parts).toString('latin1');
}

describe('issue 19: nothing outside the root is read through a symlink', () => {
  it('MCP reindex of a path through an in-root link (up -> ..) refuses it with a reason and reads nothing', async () => {
    const { tree } = await treeWithSecretBeside();
    const mcp = await serve(tree, ['--no-watch']);
    await mcp.call('search_code', { query: 'warm up', k: 1 }); // builds the index
    await symlink('..', path.join(tree.root, 'up'));

    const result = await mcp.call('reindex', { paths: ['up/outside/secret.ts', 'up/outside', 'up'] });
    expect(result.isError, errorText(result)).toBeUndefined();
    const outside = 'symlink resolves outside the root';
    expect(structured<{ files: number; filesChanged: number; skipped: unknown[] }>(result)).toMatchObject({
      files: 6,
      filesChanged: 0,
      skipped: [{ path: 'up/outside/secret.ts', reason: outside }, { path: 'up/outside', reason: outside }, { path: 'up', reason: outside }],
    });
    const search = structured<{ hits: Array<{ path: string }> }>(await mcp.call('search_code', { query: SECRET, k: 20, mode: 'lexical' }));
    expect(search.hits.filter((h) => !(h.path in SMALL_REPO))).toEqual([]);
    expect(await storedBytes(tree)).not.toContain(SECRET);
  });

  it('the watcher refuses a link to outside created after it started, and keeps indexing later edits', async () => {
    const { tree, secretPath } = await treeWithSecretBeside();
    const index = await openIndex({ root: tree.root, cacheDir: tree.cacheDir, offline: true });
    cleanup.push(() => index.close());
    const watcher = watchIndex(index);
    cleanup.push(() => watcher.close());
    await watcher.ready;

    const refused = nextBatch(watcher, (b) => b.changed >= 1);
    await symlink(secretPath, path.join(tree.root, 'src/leak.ts'));
    const batch = await refused;
    expect((await index.store.catalog.listFiles()).map((f) => f.path)).not.toContain('src/leak.ts');
    expect(batch.report.skipped).toEqual([{ path: 'src/leak.ts', reason: 'symlink resolves outside the root' }]);

    const edited = nextBatch(watcher, (b) => b.report.embedded > 0);
    await tree.write('src/geo/compass.ts', 'export function bearingDegrees(from: number, to: number): number {\n  return (to - from + 360) % 360;\n}\n');
    await edited;
    expect((await index.store.catalog.listFiles()).map((f) => f.path).sort()).toEqual([...Object.keys(SMALL_REPO), 'src/geo/compass.ts'].sort());
    expect((await index.search(SECRET, { k: 20, mode: 'lexical' })).filter((h) => !(h.path in SMALL_REPO) && h.path !== 'src/geo/compass.ts')).toEqual([]);
    expect(await storedBytes(tree)).not.toContain(SECRET);
    expect((await index.verify())).toEqual([]);
  });

  it('retrieve_context does not re-read a result file since replaced by a link to outside, nor hang on a FIFO', async () => {
    const { tree, secretPath } = await treeWithSecretBeside();
    const mcp = await serve(tree, ['--no-watch']); // no watcher: the index keeps the old entries, as between two batches
    const tasks = {
      'src/net/throttle.ts': { text: 'where are requests from a client throttled', keywords: ['throttleRequests'], maxCycles: 1 },
      'src/util/token-bucket.ts': { text: 'a bucket of tokens that refills at a steady pace', keywords: ['TokenBucket'], maxCycles: 1 },
    };
    const filesOf = (r: ContextView): ContextView['results'] => [...r.results, ...r.related];
    for (const [p, task] of Object.entries(tasks)) {
      const before = filesOf(structured<ContextView>(await mcp.call('retrieve_context', task))).find((f) => f.path === p);
      expect(before?.chunks.some((c) => c.text !== undefined)).toBe(true);
    }

    await rm(path.join(tree.root, 'src/net/throttle.ts'));
    await symlink(secretPath, path.join(tree.root, 'src/net/throttle.ts'));
    await rm(path.join(tree.root, 'src/util/token-bucket.ts'));
    execFileSync('mkfifo', [path.join(tree.root, 'src/util/token-bucket.ts')]);

    for (const [p, task] of Object.entries(tasks)) {
      const after = await mcp.call('retrieve_context', task);
      expect(after.isError, errorText(after)).toBeUndefined();
      expect(JSON.stringify(after)).not.toContain(SECRET);
      const file = filesOf(structured<ContextView>(after)).find((f) => f.path === p)!;
      expect(file.chunks.length).toBeGreaterThan(0);
      expect(file.chunks.map((c) => c.text)).toEqual(file.chunks.map(() => undefined));
    }
    // A regular file beside them still comes with its code.
    await writeFile(path.join(tree.root, 'src/util/dates.ts'), SMALL_REPO['src/util/dates.ts']!);
    const dates = structured<ContextView>(await mcp.call('retrieve_context', { text: 'parse an ISO date string', keywords: ['parseIsoDate'], maxCycles: 1 }));
    expect([...dates.results, ...dates.related].find((f) => f.path === 'src/util/dates.ts')!.chunks.some((c) => c.text?.includes('export function parseIsoDate') === true)).toBe(true);
  });
});

interface ContextView {
  results: Array<{ path: string; chunks: Array<{ startLine: number; text?: string }> }>;
  related: Array<{ path: string; chunks: Array<{ startLine: number; text?: string }> }>;
}
