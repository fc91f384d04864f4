import { describe, expect, it } from 'vitest';
import { runCli, spawnCli, waitForExit, waitForOutput } from '../../helpers/cli.js';
import { SMALL_REPO, tempTreesPerTest } from '../../helpers/fixture-tree.js';
import { assertMatchesSchema } from '../mcp/mcp-client.js';

// Issue 15, "Output for people": one root argument for every command, and a watcher that names its files.

const tempTree = tempTreesPerTest(SMALL_REPO);

describe('--root is accepted by every command that takes a root (issue 15)', () => {
  it('index, status and watch take --root R as well as the positional root; the same folder twice is fine', async () => {
    const tree = await tempTree();
    const at = ['--cache-dir', tree.cacheDir];
    const index = await runCli(['index', '--root', tree.root, ...at, '--json']);
    expect(index.code, index.stderr).toBe(0);
    expect(JSON.parse(index.stdout)).toMatchObject({ root: tree.root, files: 6 });

    for (const args of [['status', '--root', tree.root], ['status', tree.root], ['status', tree.root, '--root', `${tree.root}/.`]]) {
      const status = await runCli([...args, ...at, '--json']);
      expect(status.code, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({ root: tree.root, files: 6 });
    }

    const child = spawnCli(['watch', '--root', tree.root, ...at, '--json']);
    try {
      const ready = JSON.parse(await waitForOutput(child, 'stdout', /\{"event":"ready"[^\n]*\}/));
      expect(ready).toMatchObject({ root: tree.root, files: 6 });
    } finally {
      child.kill('SIGTERM');
    }
    expect((await waitForExit(child)).code).toBe(0);
  });

  it('two different roots give a one-line error naming both, exit 2', async () => {
    const tree = await tempTree();
    const other = await tempTree();
    for (const command of ['index', 'status', 'watch', 'mcp', 'doctor']) {
      const run = await runCli([command, tree.root, '--root', other.root, '--cache-dir', tree.cacheDir]);
      expect(run.code, `${command}: ${run.stderr}`).toBe(2);
      const lines = run.stderr.trim().split('\n');
      expect(lines, command).toHaveLength(1);
      expect(lines[0]).toBe(`codescout: Two different roots given: "${tree.root}" (positional) and --root "${other.root}". Give one of them.`);
    }
  });
});

describe('watch names the files of each batch (issue 15)', () => {
  it('prints the changed and removed paths under the batch line, and shows progress on a first build', async () => {
    const tree = await tempTree();
    const child = spawnCli(['watch', tree.root, '--cache-dir', tree.cacheDir]);
    try {
      // Empty index: the first build reports progress on stderr, as `index` does.
      await waitForOutput(child, 'stderr', /first build of .*: indexing it before watching/);
      await waitForOutput(child, 'stderr', /indexing: 6\/6 files, \d+ chunks embedded/);
      await waitForOutput(child, 'stdout', /watching .* \(6 files, \d+ chunks\)/);
      const batch = waitForOutput(child, 'stdout', /1 changed, 0 removed: 1 chunks embedded[^\n]*\n {2}changed: src\/geo\/compass\.ts\n/);
      await tree.write('src/geo/compass.ts', 'export function bearingDegrees(from: number, to: number): number {\n  return (to - from + 360) % 360;\n}\n');
      await batch;
      const removal = waitForOutput(child, 'stdout', /0 changed, 1 removed: [^\n]*\n {2}removed: src\/geo\/compass\.ts\n/);
      await tree.remove('src/geo/compass.ts');
      await removal;
    } finally {
      child.kill('SIGTERM');
    }
    expect((await waitForExit(child)).code).toBe(0);
  });

  it('names at most five paths, then "and N more"; --json lines carry them as `paths` and match the schema', async () => {
    const tree = await tempTree();
    expect((await runCli(['index', tree.root, '--cache-dir', tree.cacheDir, '--no-progress'])).code).toBe(0);
    const people = spawnCli(['watch', tree.root, '--cache-dir', tree.cacheDir]);
    try {
      await waitForOutput(people, 'stdout', /watching /);
      // Twelve files written at once: on a loaded machine the debounce may split them, but one batch still holds
      // six or more, and it names five of them and counts the rest.
      const batch = waitForOutput(people, 'stdout', /(\d+) changed, 0 removed: [^\n]*\n {2}changed: ((?:src\/gen\/f\d+\.ts, ){4}src\/gen\/f\d+\.ts) and (\d+) more\n/);
      await Promise.all(Array.from({ length: 12 }, (_, i) => i + 1).map((i) => tree.write(`src/gen/f${i}.ts`, `export function made${i}(): number {\n  return ${i};\n}\n`)));
      const [, changed, named, more] = /(\d+) changed, 0 removed: [^\n]*\n {2}changed: (.*) and (\d+) more\n/.exec(await batch)!;
      expect(Number(changed)).toBe(5 + Number(more));
      expect(new Set(named!.split(', ')).size).toBe(5);
    } finally {
      people.kill('SIGTERM');
    }
    expect((await waitForExit(people)).code).toBe(0);

    const json = spawnCli(['watch', tree.root, '--cache-dir', tree.cacheDir, '--json']);
    try {
      await waitForOutput(json, 'stdout', /\{"event":"ready"[^\n]*\}/);
      const line = waitForOutput(json, 'stdout', /\{"event":"updated"[^\n]*\}/);
      await tree.remove('src/gen/f1.ts');
      const event = JSON.parse(await line);
      assertMatchesSchema('watchEvent', event);
      expect(event).toMatchObject({ event: 'updated', changed: 0, removed: 1, paths: { changed: [], removed: ['src/gen/f1.ts'] } });
    } finally {
      json.kill('SIGTERM');
    }
    expect((await waitForExit(json)).code).toBe(0);
  });
});
