import { afterEach, describe, expect, it } from 'vitest';
import { runCli, spawnCli, waitForExit, waitForOutput, type CliRun } from '../../helpers/cli.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';
import { startMcp, structured } from '../mcp/mcp-client.js';

// Issue 15: `index --include/--exclude` given on the command line are stored with the index, so a later watch or mcp
// on it indexes what index was told to instead of silently indexing everything again.

const trees: TempTree[] = [];
afterEach(async () => {
  for (const t of trees.splice(0)) await t.dispose();
});

async function tempTree(): Promise<TempTree> {
  const tree = await createTempTree(SMALL_REPO);
  trees.push(tree);
  return tree;
}

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
});
