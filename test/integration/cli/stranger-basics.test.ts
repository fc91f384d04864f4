import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SELF_IGNORE } from '../../../src/indexer/index-folder.js';
import { runCli } from '../../helpers/cli.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';

const trees: TempTree[] = [];
afterEach(async () => {
  for (const t of trees.splice(0)) await t.dispose();
});

describe("a stranger's first steps (issue 15)", () => {
  it('--version prints the package version and exits 0', async () => {
    const pkg = JSON.parse(await readFile(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const run = await runCli([flag]);
      expect(run.code).toBe(0);
      expect(run.stdout.trim()).toBe(pkg.version);
    }
  });

  it('the default index-cache/ inside a repository ignores itself: git status stays clean', async () => {
    const tree = await createTempTree(SMALL_REPO);
    trees.push(tree);
    const git = (...args: string[]): string => execFileSync('git', ['-C', tree.root, ...args], { encoding: 'utf8' });
    git('init', '-q');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'add', '.');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'init');
    const run = await runCli(['index', tree.root, '--json']);
    expect(run.code).toBe(0);
    expect(await readFile(path.join(tree.root, 'index-cache', '.gitignore'), 'utf8')).toBe(SELF_IGNORE);
    expect(git('status', '--porcelain')).toBe('');
    // A second run leaves the file as it is.
    expect((await runCli(['index', tree.root, '--json'])).code).toBe(0);
    expect(git('status', '--porcelain')).toBe('');
  });
});
