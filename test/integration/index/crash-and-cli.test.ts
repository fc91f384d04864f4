import { afterEach, describe, expect, it } from 'vitest';
import { openIndex } from '../../../src/index.js';
import { runCli, spawnCli, waitForExit, waitForOutput } from '../../helpers/cli.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';

const trees: TempTree[] = [];
afterEach(async () => {
  for (const t of trees.splice(0)) await t.dispose();
});

/** Many small distinct files, so indexing takes a few seconds and can be killed in the middle. */
function manyFiles(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  const topics = ['parse', 'render', 'store', 'fetch', 'encode', 'merge', 'sort', 'score'];
  for (let i = 0; i < count; i++) {
    const topic = topics[i % topics.length]!;
    files[`src/mod${i}/${topic}${i}.ts`] =
      `/** ${topic} helper number ${i} for records of kind ${i % 7}. */\n` +
      `export function ${topic}Record${i}(input: string[], limit = ${i}): string[] {\n` +
      `  return input.filter((x, j) => j < limit).map((x) => x + '${topic}-${i}');\n}\n\n` +
      `export class ${topic[0]!.toUpperCase()}${topic.slice(1)}Cache${i} {\n  private entries = new Map<string, number>();\n` +
      `  put(key: string): void {\n    this.entries.set(key, ${i});\n  }\n}\n`;
  }
  return files;
}

/** Everything that defines the index content, for comparing two indexes. */
async function chunkSet(root: string, cacheDir: string): Promise<string[]> {
  const index = await openIndex({ root, cacheDir, offline: true });
  try {
    const { catalog } = index.store;
    return (await catalog.getChunks(await catalog.liveRowIds()))
      .map((c) => `${c.path}:${c.startLine}-${c.endLine}:${c.kind}:${c.symbol}:${c.hash}`)
      .sort();
  } finally {
    await index.close();
  }
}

describe('indexing survives SIGKILL and the CLI reports in JSON', () => {
  it('a child killed mid-index leaves an index that opens, verifies, and completes to the clean-build state', async () => {
    // Enough texts that embedding outlasts the CLI's one-line-a-second progress on a fast machine.
    const count = 640;
    const tree = await createTempTree(manyFiles(count));
    trees.push(tree);
    const child = spawnCli(['index', tree.root, '--cache-dir', tree.cacheDir]);
    await waitForOutput(child, 'stderr', /indexing: \d+\/640 files, [1-9]\d* chunks embedded, [1-9]\d* waiting/);
    child.kill('SIGKILL');
    expect((await waitForExit(child)).signal).toBe('SIGKILL');

    const reopened = await openIndex({ root: tree.root, cacheDir: tree.cacheDir, offline: true });
    expect((await reopened.verify())).toEqual([]);
    // Killed while embedding: every file was committed first (searchable by words), part of the vectors were not.
    const partial = (await reopened.stats());
    expect(partial.files).toBeGreaterThan(0);
    expect(partial.chunksWaiting).toBeGreaterThan(0);
    expect(partial.vectors).toBeLessThan(partial.chunks);
    const finished = await reopened.update();
    expect(finished.files).toBe(count);
    expect(finished.embedded).toBeLessThan(finished.chunks); // committed work was kept, not redone
    expect((await reopened.verify())).toEqual([]);
    await reopened.close();

    const clean = await createTempTree({});
    trees.push(clean);
    const fresh = await openIndex({ root: tree.root, cacheDir: clean.cacheDir, offline: true });
    await fresh.update();
    await fresh.close();
    expect(await chunkSet(tree.root, tree.cacheDir)).toEqual(await chunkSet(tree.root, clean.cacheDir));
  });

  it('index --json, status --json and search --json print the documented shapes', async () => {
    const tree = await createTempTree(SMALL_REPO);
    trees.push(tree);
    const indexed = await runCli(['index', tree.root, '--cache-dir', tree.cacheDir, '--json']);
    expect(indexed.code).toBe(0);
    const summary = JSON.parse(indexed.stdout);
    expect(Object.keys(summary).sort()).toEqual(['chunks', 'embedded', 'files', 'removed', 'reused', 'root', 'seconds', 'skipped']);
    expect(summary).toMatchObject({ files: 6, removed: 0, reused: 0 });
    expect(summary.embedded).toBe(summary.chunks);

    const again = JSON.parse((await runCli(['index', tree.root, '--cache-dir', tree.cacheDir, '--json'])).stdout);
    expect(again).toMatchObject({ embedded: 0, chunks: summary.chunks });

    const status = JSON.parse((await runCli(['status', tree.root, '--cache-dir', tree.cacheDir, '--json'])).stdout);
    expect(status).toMatchObject({ model: 'all-MiniLM-L6-v2', dimension: 384, files: 6, chunks: summary.chunks });

    const search = await runCli(['search', 'turn an ISO date string into a Date', '--root', tree.root, '--cache-dir', tree.cacheDir, '-k', '3', '--json']);
    expect(search.code).toBe(0);
    const { hits } = JSON.parse(search.stdout);
    expect(hits[0]).toMatchObject({ path: 'src/util/dates.ts', symbol: 'parseIsoDate', kind: 'function' });
    expect(Object.keys(hits[0]).sort()).toEqual(['endLine', 'kind', 'path', 'score', 'similarity', 'startLine', 'symbol']);
  });

  it('bad usage exits 2 with a message that names the problem', async () => {
    const unknown = await runCli(['index', '--bogus']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--bogus'");
    const missing = await runCli(['index', '/definitely/not/here']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('/definitely/not/here does not exist');
    const badMode = await runCli(['search', 'x', '--mode', 'fuzzy']);
    expect(badMode.code).toBe(2);
    expect(badMode.stderr).toContain('--mode must be one of vector, lexical, hybrid');
  });
});
