import { execFileSync } from 'node:child_process';
import { access, mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openIndex } from '../../../src/index.js';
import { runCli, spawnCli, waitForExit, waitForOutput } from '../../helpers/cli.js';
import { eventually } from '../../helpers/events.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';
import { expectCleanFailure, indexDirOf, parseOneJson, STACK_FRAME } from '../../helpers/robustness.js';

// Issue 19, finding 2: a FIFO hung `index` forever (open() blocked while the write lock was held, and SIGINT was
// never checked by discovery), wedged `watch`, and hung `chunks`. Each test here timed out before the fix.

const trees: TempTree[] = [];
afterEach(async () => {
  for (const t of trees.splice(0)) await t.dispose();
});
async function tempTree(files: Record<string, string>): Promise<TempTree> {
  const t = await createTempTree(files);
  trees.push(t);
  return t;
}
const mkfifo = (abs: string): void => void execFileSync('mkfifo', [abs]);
const exists = (abs: string): Promise<boolean> => access(abs).then(() => true, () => false);

/** A direct FIFO, a `.ts` link to a FIFO in a folder never walked, and a FIFO `.gitignore` (read synchronously). */
async function plantFifos(t: TempTree): Promise<void> {
  mkfifo(path.join(t.root, 'src/pipe.ts'));
  await mkdir(path.join(t.root, 'build'));
  mkfifo(path.join(t.root, 'build/queue'));
  await symlink('../build/queue', path.join(t.root, 'src/queue.ts'));
  await mkdir(path.join(t.root, 'docs'));
  mkfifo(path.join(t.root, 'docs/.gitignore'));
}

describe('issue 19: FIFOs never hang a read', () => {
  it('index finishes, skipping a FIFO direct and behind a .ts link, and a FIFO ignore file', async () => {
    const t = await tempTree(SMALL_REPO);
    await plantFifos(t);
    const run = await runCli(['index', t.root, '--cache-dir', t.cacheDir, '--json'], { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(parseOneJson(run)).toMatchObject({ files: 6, skipped: 3 });
    const index = await openIndex({ root: t.root, cacheDir: t.cacheDir, offline: true });
    try {
      expect((await index.store.catalog.listFiles()).map((f) => f.path).sort()).toEqual(Object.keys(SMALL_REPO).sort());
      // The library report names them with the reason.
      const report = await index.update();
      expect(report.skipped).toEqual([
        { path: 'docs/.gitignore', reason: 'not a regular file (FIFO)' },
        { path: 'src/pipe.ts', reason: 'not a regular file (FIFO)' },
        { path: 'src/queue.ts', reason: 'not a regular file (FIFO)' },
      ]);
    } finally {
      await index.close();
    }
  });

  it('watch: a FIFO created while it runs is skipped and a later edit is still indexed; SIGTERM still stops it', async () => {
    const t = await tempTree(SMALL_REPO);
    const child = spawnCli(['watch', t.root, '--cache-dir', t.cacheDir, '--json']);
    try {
      await waitForOutput(child, 'stdout', /"event":"ready"/);
      await plantFifos(t);
      const indexed = waitForOutput(child, 'stdout', /"event":"updated"[^\n]*"files":7/);
      await t.write('src/geo/compass.ts', 'export function bearingDegrees(from: number, to: number): number {\n  return (to - from + 360) % 360;\n}\n');
      await indexed;
      const search = await runCli(['search', 'bearingDegrees', '--root', t.root, '--cache-dir', t.cacheDir, '--mode', 'lexical', '--json']);
      expect((parseOneJson(search) as { hits: Array<{ path: string }> }).hits[0]!.path).toBe('src/geo/compass.ts');
    } finally {
      child.kill('SIGTERM');
    }
    expect((await waitForExit(child)).code).toBe(0);
  });

  it('chunks <fifo> fails at once with exit 2 and a clear message', async () => {
    const t = await tempTree({});
    mkfifo(path.join(t.root, 'pipe.ts'));
    await symlink('pipe.ts', path.join(t.root, 'linked.ts'));
    for (const name of ['pipe.ts', 'linked.ts']) {
      const run = await runCli(['chunks', path.join(t.root, name)], { timeoutMs: 20_000 });
      expectCleanFailure(run, 2, /^codescout: Cannot read ".*": not a regular file \(FIFO\)\. Pass an existing regular source file\.$/m);
    }
  });

  it('SIGINT while index holds the write lock ends with exit 130 and the lock released', async () => {
    const files = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`src/m${i}/f${i}.ts`, `/** Helper ${i}. */\nexport function helper${i}(x: number): number {\n  return x * ${i};\n}\n`]));
    const t = await tempTree(files);
    await plantFifos(t);
    const lock = path.join(indexDirOf(t.cacheDir, t.root), 'write.lock');
    const child = spawnCli(['index', t.root, '--cache-dir', t.cacheDir, '--no-progress']);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      await eventually(() => exists(lock), (held) => held, 30_000);
      child.kill('SIGINT');
      const exit = await Promise.race([
        waitForExit(child),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`index ignored SIGINT; stderr: ${stderr}`)), 30_000)),
      ]);
      expect(exit.code, stderr).toBe(130);
    } finally {
      child.kill('SIGKILL');
    }
    expect(stderr).toMatch(/^codescout: (Discovery|Indexing|Embedding) aborted/m);
    expect(stderr).not.toMatch(STACK_FRAME);
    expect(await exists(lock)).toBe(false);
    // The lock is free: the next writer runs at once and finishes the job.
    const again = await runCli(['index', t.root, '--cache-dir', t.cacheDir, '--json'], { timeoutMs: 120_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(parseOneJson(again)).toMatchObject({ files: 200, skipped: 3 });
  });
});
