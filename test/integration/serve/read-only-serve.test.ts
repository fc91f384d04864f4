import type { ChildProcess } from 'node:child_process';
import { chmod, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { letOtherUsersReachCheckout, NOBODY, runCli, spawnCli, waitForExit, waitForOutput } from '../../helpers/cli.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';

// Issue 15, "Warm queries": `serve` holds an index open without writing it, so it serves a read-only index too —
// its socket then lives in the user's private temp folder, where the CLI looks for it as well.

const isRoot = process.getuid?.() === 0;
/** File modes do not bind root: as root, the CLI runs as nobody, for whom the index is read-only. */
const as = isRoot ? { uid: NOBODY, gid: NOBODY } : {};

/** Sets the mode of a folder and everything below it. */
async function chmodTree(dir: string, mode: (isDir: boolean) => number): Promise<void> {
  await chmod(dir, mode(true));
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) await chmodTree(p, mode);
    else await chmod(p, mode(false));
  }
}

describe.skipIf(process.platform === 'win32')('serve on a read-only index (issue 15)', () => {
  let tree: TempTree;
  let indexDir: string;
  let restoreModes: () => Promise<void>;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    restoreModes = await letOtherUsersReachCheckout();
    tree = await createTempTree(SMALL_REPO);
    expect((await runCli(['index', tree.root, '--cache-dir', tree.cacheDir, '--no-progress'])).code).toBe(0);
    indexDir = (JSON.parse((await runCli(['status', tree.root, '--cache-dir', tree.cacheDir, '--json'])).stdout) as { indexDir: string }).indexDir;
    await chmod(path.dirname(tree.root), 0o755); // mkdtemp made it private; the other user must reach root and cache
    await chmodTree(tree.root, (isDir) => (isDir ? 0o755 : 0o644));
    await chmodTree(tree.cacheDir, (isDir) => (isDir ? 0o555 : 0o444)); // nobody may write the index, not even its owner
  });
  afterAll(async () => {
    for (const child of children) {
      child.kill('SIGTERM');
      await waitForExit(child);
    }
    await chmodTree(tree.cacheDir, (isDir) => (isDir ? 0o755 : 0o644));
    await tree.dispose();
    await restoreModes();
  });

  it('listens in the private temp folder and answers the CLI from there', async () => {
    const serve = spawnCli(['serve', tree.root, '--cache-dir', tree.cacheDir], as);
    children.push(serve);
    const ready = await waitForOutput(serve, 'stdout', /serving .* at (\S+)\. Ctrl-C to stop\./);
    const socketPath = /at (\S+)\. Ctrl-C/.exec(ready)![1]!;
    expect(path.dirname(socketPath)).not.toBe(indexDir);
    expect((await stat(socketPath)).isSocket()).toBe(true);

    const run = await runCli(['search', 'token bucket refill', '--root', tree.root, '--cache-dir', tree.cacheDir, '--verbose'], as);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.split('\n')[0]).toBe(`codescout: answered by the query server at ${socketPath} (pid ${serve.pid}) in ${/in (\d+) ms/.exec(run.stderr)?.[1]} ms`);
    expect(run.stdout).toMatch(/token-bucket|TokenBucket/);
  });
});
