import type { ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, spawnCli, waitForExit, waitForOutput, type CliRun } from '../../helpers/cli.js';
import { createTempTree, type TempTree } from '../../helpers/fixture-tree.js';
import { parseOneJson, STACK_FRAME } from '../../helpers/robustness.js';

// Issue 9: concurrent CLI processes on one index. Writers serialise on the write lock (a loser exits 5 naming
// the holder), readers never wait for it, and afterwards the index verifies. Every run has a timeout, so a
// deadlock fails the test instead of hanging it.

const trees: TempTree[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  // A writer left frozen by a failed assertion would hold its lock and never exit.
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const t of trees.splice(0)) await t.dispose();
});

/** `count` files of three small functions each: enough work that a pass takes several seconds. */
function sourceFiles(count: number, tag = ''): Record<string, string> {
  return Object.fromEntries(
    Array.from({ length: count }, (_, i) => [
      `src/part${i % 10}/unit${i}.ts`,
      [0, 1, 2].map((j) => `/** Unit ${i}${tag} step ${j}. */\nexport function unit${i}step${j}(v: number): number {\n  return v * ${i + 1} - ${j};\n}\n`).join('\n'),
    ]),
  );
}

async function expectVerified(t: TempTree, files: number): Promise<void> {
  const status = await runCli(['status', t.root, '--cache-dir', t.cacheDir, '--verify', '--json']);
  expect(status.code, status.stdout + status.stderr).toBe(0);
  expect(parseOneJson(status)).toMatchObject({ files, problems: [] });
}

function expectIndexOrLocked(run: CliRun): void {
  expect([0, 5], run.stderr).toContain(run.code);
  expect(run.stderr).not.toMatch(STACK_FRAME);
  if (run.code === 5) expect(run.stderr).toMatch(/is being written by process \d+ on .*Wait for it to finish/);
}

describe('concurrent writers and readers', () => {
  it('two index runs at once: each succeeds or exits 5 with the lock error; afterwards the index verifies and is complete', async () => {
    const t = await createTempTree(sourceFiles(100));
    trees.push(t);
    const args = ['index', t.root, '--cache-dir', t.cacheDir, '--no-progress'];
    const [a, b] = await Promise.all([runCli(args), runCli(args)]);
    expectIndexOrLocked(a);
    expectIndexOrLocked(b);
    expect([a.code, b.code]).toContain(0);
    await expectVerified(t, 100);
    const again = parseOneJson(await runCli([...args, '--json']));
    expect(again).toMatchObject({ files: 100, embedded: 0, removed: 0 });
  });

  it('index --rebuild while another index is writing exits 5 and touches nothing', async () => {
    const t = await createTempTree(sourceFiles(120));
    trees.push(t);
    const writer = spawnCli(['index', t.root, '--cache-dir', t.cacheDir]);
    await waitForOutput(writer, 'stderr', /indexing: \d+\/120 files/);
    const rebuild = await runCli(['index', t.root, '--cache-dir', t.cacheDir, '--rebuild']);
    const done = await waitForExit(writer);
    expect(done.code).toBe(0);
    expect(rebuild.code, rebuild.stderr).toBe(5);
    expect(rebuild.stderr).toMatch(new RegExp(`is being written by process ${writer.pid} `));
    await expectVerified(t, 120);
  });

  it('searches during an index pass all answer with valid JSON and never wait for the writer, even one frozen mid-pass', async () => {
    const t = await createTempTree(sourceFiles(150));
    trees.push(t);
    expect((await runCli(['index', t.root, '--cache-dir', t.cacheDir, '--no-progress'])).code).toBe(0);
    // 150 more files for the pass: the first 150 keep their vectors throughout, so every search has 5 hits to give.
    for (const [rel, text] of Object.entries(sourceFiles(300)).slice(150)) await t.write(rel, text);
    const writer = spawnCli(['index', t.root, '--cache-dir', t.cacheDir]);
    children.push(writer);
    let writerDone = false;
    const exited = waitForExit(writer).then((e) => {
      writerDone = true;
      return e;
    });
    // Issue 17: with batched embedding a pass like this takes about 1.5 s, and a search started after the writer's
    // first "chunks embedded" line (printed at most once a second) often began after the writer had gone. Overlap
    // by luck of timing proves nothing, so the writer is frozen mid-pass, holding the write lock, and the searches
    // must still answer: one that waited for the writer would hit its timeout.
    await waitForOutput(writer, 'stderr', /indexing: \d+\/300 files/);
    expect(writer.kill('SIGSTOP')).toBe(true);
    const searches: CliRun[] = [];
    const search = (): Promise<CliRun> =>
      runCli(['search', 'multiply the value by a unit step', '--root', t.root, '--cache-dir', t.cacheDir, '-k', '5', '--json'], { timeoutMs: 30_000 });
    for (let i = 0; i < 2; i++) searches.push(await search());
    expect(writerDone).toBe(false);
    expect(writer.kill('SIGCONT')).toBe(true);
    while (!writerDone) searches.push(await search());
    expect((await exited).code).toBe(0);
    for (const run of searches) {
      expect(run.code, run.stderr).toBe(0);
      const { hits } = parseOneJson(run) as { hits: Array<{ path: string }> };
      expect(hits).toHaveLength(5);
      for (const h of hits) expect(h.path).toMatch(/^src\/part\d\/unit\d+\.ts$/);
    }
    await expectVerified(t, 300);
  });

  it('watch and index at once, with files changing: no corruption, no deadlock, and both stop cleanly', async () => {
    const t = await createTempTree(sourceFiles(40));
    trees.push(t);
    expect((await runCli(['index', t.root, '--cache-dir', t.cacheDir, '--no-progress'])).code).toBe(0);
    const watcher = spawnCli(['watch', t.root, '--cache-dir', t.cacheDir, '--json']);
    await waitForOutput(watcher, 'stdout', /"event":"ready"/);
    for (let round = 0; round < 3; round++) {
      const edits = sourceFiles(40, ` round ${round}`);
      for (const [rel, text] of Object.entries(edits).slice(round * 10, round * 10 + 10)) await writeFile(path.join(t.root, rel), text);
      expectIndexOrLocked(await runCli(['index', t.root, '--cache-dir', t.cacheDir, '--no-progress'], { timeoutMs: 60_000 }));
    }
    watcher.kill('SIGTERM');
    expect((await waitForExit(watcher)).code).toBe(0);
    const settled = parseOneJson(await runCli(['index', t.root, '--cache-dir', t.cacheDir, '--json']));
    expect(settled).toMatchObject({ files: 40, removed: 0 });
    await expectVerified(t, 40);
  });
});
