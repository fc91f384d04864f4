import Database from 'better-sqlite3';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultModelsDir } from '../../../src/config.js';
import { MAX_TASK_CHARS } from '../../../src/retrieve/task.js';
import { runCli, spawnCli, waitForExit, waitForOutput } from '../../helpers/cli.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';
import { expectCleanFailure, indexDirOf, STACK_FRAME } from '../../helpers/robustness.js';

// Issue 9: every bad option or input is a typed error with the README's exit code and a message that says
// what to do, and no stack trace unless --debug.

let tree: TempTree;
let aFile: string;
const at = (): string[] => ['--root', tree.root, '--cache-dir', tree.cacheDir];

beforeAll(async () => {
  tree = await createTempTree(SMALL_REPO);
  aFile = path.join(tree.root, 'README.md');
  const built = await runCli(['index', tree.root, '--cache-dir', tree.cacheDir, '--no-progress']);
  expect(built.code, built.stderr).toBe(0);
});
afterAll(async () => {
  await tree?.dispose();
});

describe('bad usage exits 2 with a message naming the fix', () => {
  it.each(['index', 'status', 'search x', 'query x', 'watch', 'mcp', 'chunks f'])('an unknown flag on "%s"', async (command) => {
    const run = await runCli([...command.split(' '), '--frobnicate']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("error: unknown option '--frobnicate'");
    expect(run.stderr).toContain('(run codescout --help for usage)');
  });

  it.each(['index', 'status', 'watch'])('"%s" of a root that does not exist, or is a file', async (command) => {
    const missing = path.join(tree.root, 'no', 'such', 'dir');
    expectCleanFailure(await runCli([command, missing]), 2, new RegExp(`Root ${missing} does not exist\\. Pass an existing folder\\.`));
    expectCleanFailure(await runCli([command, aFile]), 2, /README\.md is a file, not a folder\. Pass its folder\./);
    expectCleanFailure(await runCli(['search', 'x', '--root', missing]), 2, /does not exist\. Pass an existing folder/);
  });

  it('an unwritable cache dir (a path below a regular file)', async () => {
    const run = await runCli(['index', tree.root, '--cache-dir', path.join(aFile, 'cache')]);
    expectCleanFailure(run, 2, /Cannot create the index folder .*README\.md\/cache\/repo-\w+: .*README\.md is not a folder\. Pass a writable --cache-dir \(or set CODESCOUT_CACHE_DIR\)\./);
  });

  it('an empty or blank query', async () => {
    expectCleanFailure(await runCli(['search', '', ...at()]), 2, /The search text is empty\. Give a few words/);
    expectCleanFailure(await runCli(['search', '   ', ...at()]), 2, /The search text is empty/);
    expectCleanFailure(await runCli(['query', ' \t ', ...at()]), 2, /The task text is empty\. Describe what you need/);
  });

  it('a 100,000-character query', async () => {
    const huge = 'rate limit '.repeat(10_000).slice(0, 100_000);
    const limit = new RegExp(`has 100000 characters; the limit is ${MAX_TASK_CHARS}\\.`);
    expectCleanFailure(await runCli(['search', huge, ...at()]), 2, limit);
    expectCleanFailure(await runCli(['query', huge, ...at()]), 2, limit);
  });

  it('malformed globs on index, search and query', async () => {
    const malformed = /glob "src\/\[abc" is malformed: .*Fix or remove it\./;
    expectCleanFailure(await runCli(['index', tree.root, '--cache-dir', tree.cacheDir, '--include', 'src/[abc']), 2, malformed);
    expectCleanFailure(await runCli(['search', 'x', ...at(), '--exclude', 'src/[abc']), 2, malformed);
    expectCleanFailure(await runCli(['query', 'throttle', ...at(), '--patterns', 'src/[abc']), 2, malformed);
  });

  it('bad option values: -k, --mode, --max-cycles, --model', async () => {
    expectCleanFailure(await runCli(['search', 'x', ...at(), '-k', '0']), 2, /-k must be a whole number from 1 to 1000; got "0"\./);
    expectCleanFailure(await runCli(['search', 'x', ...at(), '-k', 'ten']), 2, /-k must be a whole number from 1 to 1000; got "ten"\./);
    expectCleanFailure(await runCli(['search', 'x', ...at(), '--mode', 'fuzzy']), 2, /--mode must be one of vector, lexical, hybrid; got "fuzzy"\./);
    expectCleanFailure(await runCli(['query', 'x', ...at(), '--max-cycles', '9']), 2, /maxCycles must be a whole number from 1 to 5; got 9\./);
    expectCleanFailure(await runCli(['index', tree.root, '--model', 'gpt-embed']), 2, /Unknown model "gpt-embed"\. Known models: all-MiniLM-L6-v2, bge-small-en-v1\.5\./);
  });

  it('--debug, and only --debug, adds the stack', async () => {
    const run = await runCli(['--debug', 'index', path.join(tree.root, 'nope')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^ConfigError: Root .* does not exist/m);
    expect(run.stderr).toMatch(STACK_FRAME);
  });
});

describe('the other exit codes of the README table', () => {
  it('3: a model folder without tokenizer.json', async () => {
    const source = path.join(defaultModelsDir(), 'all-MiniLM-L6-v2');
    const partial = path.join(path.dirname(tree.root), 'model-without-tokenizer');
    await mkdir(path.join(partial, 'onnx'), { recursive: true });
    for (const f of ['config.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx']) await copyFile(path.join(source, f), path.join(partial, f));
    const run = await runCli(['index', tree.root, '--cache-dir', path.join(path.dirname(tree.root), 'cache-model'), '--model-dir', partial]);
    expectCleanFailure(run, 3, /Model folder .*model-without-tokenizer is missing tokenizer\.json\. Run: npx codescout model fetch all-MiniLM-L6-v2/);
  });

  it('4: an index built by another model; --rebuild is named as the fix', async () => {
    const copy = path.join(path.dirname(tree.root), 'cache-other-model');
    const built = await runCli(['index', tree.root, '--cache-dir', copy, '--no-progress']);
    expect(built.code).toBe(0);
    const db = new Database(path.join(indexDirOf(copy, tree.root), 'catalog.sqlite'));
    db.prepare("UPDATE manifest SET value = 'bge-small-en-v1.5' WHERE key = 'model'").run();
    db.close();
    expectCleanFailure(await runCli(['index', tree.root, '--cache-dir', copy]), 4, /was built with bge-small-en-v1\.5 \(384d\); the embedder is all-MiniLM-L6-v2 \(384d\)\. Run: codescout index .* --rebuild/);
    expectCleanFailure(await runCli(['search', 'x', '--root', tree.root, '--cache-dir', copy]), 4, /--rebuild/);
  });

  it('5: another live process holds the write lock; its pid is named', async () => {
    const dir = indexDirOf(tree.cacheDir, tree.root);
    const lock = path.join(dir, 'write.lock');
    // This test process is alive, so the lock is not stale.
    await writeFile(lock, JSON.stringify({ pid: process.pid, hostname: hostname(), startedAt: new Date().toISOString(), token: 'test' }));
    try {
      const run = await runCli(['index', tree.root, '--cache-dir', tree.cacheDir]);
      expectCleanFailure(run, 5, new RegExp(`is being written by process ${process.pid} .*Wait for it to finish; if no codescout process is running, delete .*write\\.lock\\.`));
    } finally {
      await rm(lock, { force: true });
    }
  });

  it('130: SIGINT stops index between files, keeps what was committed, and the index verifies', async () => {
    const big = await createTempTree(
      // Three symbols a file: the first commit (256 chunks) comes well before the end.
      Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`src/m${i}/f${i}.ts`, [0, 1, 2].map((j) =>
        `/** Helper ${i}.${j}. */\nexport function helper${i}x${j}(x: number): number {\n  return x * ${i} + ${j};\n}\n`).join('\n')])),
    );
    try {
      const child = spawnCli(['index', big.root, '--cache-dir', big.cacheDir]);
      await waitForOutput(child, 'stderr', /indexing: \d+\/300 files, [1-9]\d* chunks embedded/);
      child.kill('SIGINT');
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      const exit = await waitForExit(child);
      expect(exit.code).toBe(130);
      expect(stderr).toMatch(/codescout: (Indexing|Embedding) aborted/);
      expect(stderr).not.toMatch(STACK_FRAME);
      const status = await runCli(['status', big.root, '--cache-dir', big.cacheDir, '--verify', '--json']);
      expect(status.code, status.stdout).toBe(0);
      const { files, chunksWaiting } = JSON.parse(status.stdout) as { files: number; chunksWaiting: number };
      expect(files).toBeGreaterThan(0);
      // Stopped before the end: files not yet read, or (files first, vectors behind) chunks still waiting for vectors.
      expect(files < 300 || chunksWaiting > 0).toBe(true);
    } finally {
      await big.dispose();
    }
  });
});
