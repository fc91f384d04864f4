import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openIndex } from '../../../src/index.js';
import { runCli, spawnCli, waitForExit, waitForOutput, type CliRun } from '../../helpers/cli.js';
import { SMALL_REPO, tempTreesPerTest, type TempTree } from '../../helpers/fixture-tree.js';
import { assertMatchesSchema, startMcp, structured } from '../mcp/mcp-client.js';

// Issue 15: `index --include/--exclude` given on the command line are stored with the index, so a later watch or mcp
// on it indexes what index was told to instead of silently indexing everything again.

const tempTree = tempTreesPerTest(SMALL_REPO);

function cli(tree: TempTree, args: readonly string[]): Promise<CliRun> {
  return runCli([...args, '--cache-dir', tree.cacheDir]);
}

const UTIL = ['src/util/dates.ts', 'src/util/token-bucket.ts'];

describe('globs given to index are stored with the index (issue 15)', () => {
  it('watch honours them: its start-up pass keeps the index to them, and new files outside them stay out', async () => {
    const tree = await tempTree();
    const index = await cli(tree, ['index', tree.root, '--include', 'src/util/**', '--json']);
    expect(index.code, index.stderr).toBe(0);
    expect(JSON.parse(index.stdout)).toMatchObject({ files: 2 });

    const watch = spawnCli(['watch', tree.root, '--cache-dir', tree.cacheDir]);
    try {
      await waitForOutput(watch, 'stderr', /codescout: indexing with the globs stored with the index by codescout index \(include src\/util\/\*\*\)\n/);
      await waitForOutput(watch, 'stdout', /watching .* \(2 files, \d+ chunks\)/);
      const batch = waitForOutput(watch, 'stdout', /1 changed, 0 removed[^\n]*\n {2}changed: src\/util\/clock\.ts\n/);
      await tree.write('src/net/retry.ts', 'export function retryLater(ms: number): number {\n  return ms * 2;\n}\n');
      await tree.write('src/util/clock.ts', 'export function nowMs(): number {\n  return Date.now();\n}\n');
      await batch;
    } finally {
      watch.kill('SIGTERM');
    }
    expect((await waitForExit(watch)).code).toBe(0);
    const status = JSON.parse((await cli(tree, ['status', tree.root, '--json'])).stdout) as { files: number };
    expect(status.files).toBe(3);
    const listed = await cli(tree, ['search', 'retry later clock', '--root', tree.root, '-l', '-k', '1000', '--no-server']);
    expect(listed.stdout.trim().split('\n').sort()).toEqual(['src/util/clock.ts', ...UTIL]);
  });

  it('mcp honours them: index_status and a full reindex keep to them', async () => {
    const tree = await tempTree();
    expect((await cli(tree, ['index', tree.root, '--exclude', 'src/util/**,README.md', '--no-progress'])).code).toBe(0);
    const mcp = await startMcp(tree, ['--no-watch']);
    try {
      const reindex = structured<{ files: number }>(await mcp.call('reindex', {}));
      expect(reindex.files).toBe(3);
      expect(structured<{ files: number }>(await mcp.call('index_status', {})).files).toBe(3);
      expect(mcp.stderr()).toContain('codescout: indexing with the globs stored with the index by codescout index (exclude src/util/**, README.md)\n');
    } finally {
      await mcp.close();
    }
  });

  it('index keeps them, says when other globs replace them, and --reset-filters forgets them', async () => {
    const tree = await tempTree();
    const first = await cli(tree, ['index', tree.root, '--include', 'src/util/**', '--json']);
    expect(first.stderr).toBe(''); // a new index: nothing was built with other globs
    const again = await cli(tree, ['index', tree.root, '--json']);
    expect(again.stderr).toBe('codescout: indexing with the globs stored with the index (include src/util/**); --include/--exclude replace them, --reset-filters forgets them\n');
    expect(JSON.parse(again.stdout)).toMatchObject({ files: 2, removed: 0 });

    const other = await cli(tree, ['index', tree.root, '--include', 'src/**', '--exclude', 'src/util/**', '--json']);
    expect(other.stderr).toBe('codescout: the index was built with include src/util/**; re-indexing with include src/**; exclude src/util/**: files these globs leave out are removed, files they bring in are indexed\n');
    expect(JSON.parse(other.stdout)).toMatchObject({ files: 3, removed: 2 });

    const both = await cli(tree, ['index', tree.root, '--reset-filters', '--include', 'src/**']);
    expect(both.code).toBe(2);
    const reset = await cli(tree, ['index', tree.root, '--reset-filters', '--json']);
    expect(reset.stderr).toBe('codescout: forgot the globs stored with the index; codescout.json (if any) decides what is indexed\n');
    expect(JSON.parse(reset.stdout)).toMatchObject({ files: 6 });
    const plain = await cli(tree, ['index', tree.root, '--json']);
    expect([plain.stderr, JSON.parse(plain.stdout).files]).toEqual(['', 6]);
  });

  it('a damaged filters.json: search says how to repair it, and --reset-filters or new globs get past it', async () => {
    const tree = await tempTree();
    expect((await cli(tree, ['index', tree.root, '--include', 'src/util/**'])).code).toBe(0);
    const { indexDir } = JSON.parse((await cli(tree, ['status', tree.root, '--json'])).stdout) as { indexDir: string };
    await writeFile(path.join(indexDir, 'filters.json'), '{bad');
    const search = await cli(tree, ['search', 'token bucket', '--root', tree.root, '--no-server']);
    expect(search.code).toBe(2);
    expect(search.stderr).toMatch(/filters\.json is not the list of globs codescout index stores\. Run: codescout index --reset-filters/);
    const replaced = await cli(tree, ['index', tree.root, '--include', 'src/**', '--json']);
    expect(replaced.code, replaced.stderr).toBe(0);
    await writeFile(path.join(indexDir, 'filters.json'), '{bad');
    const reset = await cli(tree, ['index', tree.root, '--reset-filters']);
    expect(reset.code, reset.stderr).toBe(0);
    expect(existsSync(path.join(indexDir, 'filters.json'))).toBe(false);
    expect((await cli(tree, ['search', 'token bucket', '--root', tree.root, '--no-server'])).code).toBe(0);
  });

  it('the library honours them: openIndex indexes with the stored globs; globs it is given win; useStoredFilters: false ignores them', async () => {
    const tree = await tempTree();
    expect((await cli(tree, ['index', tree.root, '--include', 'src/util/**', '--no-progress'])).code).toBe(0);
    await tree.write('src/util/clock.ts', 'export function nowMs(): number {\n  return Date.now();\n}\n');
    const listed = async (options: { include?: string[]; useStoredFilters?: boolean }): Promise<{ stored: unknown; include: readonly string[]; files: string[] }> => {
      const index = await openIndex({ root: tree.root, cacheDir: tree.cacheDir, offline: true, ...options });
      try {
        await index.update();
        return { stored: index.storedFilters, include: index.config.include, files: (await index.store.catalog.listFiles()).map((f) => f.path).sort() };
      } finally {
        await index.close();
      }
    };
    expect(await listed({})).toEqual({ stored: { include: ['src/util/**'], exclude: [] }, include: ['src/util/**'], files: ['src/util/clock.ts', ...UTIL] });
    const own = await listed({ include: ['src/net/**'] });
    expect(own).toEqual({ stored: { include: ['src/util/**'], exclude: [] }, include: ['src/net/**'], files: ['src/net/throttle.ts'] });
    const ignored = await listed({ useStoredFilters: false });
    expect([ignored.include, ignored.files.length]).toEqual([[], 7]);
  });

  it('status shows them (human and --json, per its schema), and says when none are stored', async () => {
    const tree = await tempTree();
    expect((await cli(tree, ['index', tree.root, '--include', 'src/util/**,src/net/**', '--exclude', 'src/net/retry.ts', '--no-progress'])).code).toBe(0);
    const json = await cli(tree, ['status', tree.root, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const status = JSON.parse(json.stdout) as { storedFilters: unknown; files: number };
    assertMatchesSchema('status', status);
    expect([status.storedFilters, status.files]).toEqual([{ include: ['src/util/**', 'src/net/**'], exclude: ['src/net/retry.ts'] }, 3]);
    const human = await cli(tree, ['status', tree.root]);
    expect(human.stdout).toContain('\nglobs:    include src/util/**, src/net/**; exclude src/net/retry.ts (stored by codescout index; --include/--exclude replace them, --reset-filters forgets them)\n');
    expect(human.stderr).toBe('');

    expect((await cli(tree, ['index', tree.root, '--reset-filters', '--no-progress'])).code).toBe(0);
    expect(JSON.parse((await cli(tree, ['status', tree.root, '--json'])).stdout)).toMatchObject({ storedFilters: null, files: 6 });
    expect((await cli(tree, ['status', tree.root])).stdout).toContain('\nglobs:    none stored (codescout.json, if any, decides what is indexed)\n');
  });
});
