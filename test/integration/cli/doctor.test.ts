import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { letOtherUsersReachCheckout, NOBODY, runCli } from '../../helpers/cli.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';
import { assertMatchesSchema } from '../mcp/mcp-client.js';

// Issue 15, "Output for people": `codescout doctor` checks the toolchain, model, writable folders and index health.

interface DoctorJson {
  ok: boolean;
  root: string;
  checks: Array<{ id: string; status: 'ok' | 'problem' | 'skipped'; detail: string; fix?: string }>;
}

const isRoot = process.getuid?.() === 0;
let restoreModes: () => Promise<void>;
beforeAll(async () => {
  restoreModes = await letOtherUsersReachCheckout();
});
afterAll(async () => restoreModes());

const trees: TempTree[] = [];
afterEach(async () => {
  for (const t of trees.splice(0)) await t.dispose();
});

const check = (doc: DoctorJson, id: string) => doc.checks.find((c) => c.id === id);

describe('codescout doctor (issue 15)', () => {
  it('passes every check on a healthy setup, people and --json alike; the JSON matches its schema', async () => {
    const tree = await createTempTree(SMALL_REPO);
    trees.push(tree);
    const at = ['--cache-dir', tree.cacheDir];
    const before = await runCli(['doctor', tree.root, ...at, '--json']);
    expect(before.code, before.stderr).toBe(0);
    const fresh = JSON.parse(before.stdout) as DoctorJson;
    assertMatchesSchema('doctor', fresh);
    expect(check(fresh, 'index')?.status).toBe('skipped');

    expect((await runCli(['index', tree.root, ...at, '--no-progress'])).code).toBe(0);
    const run = await runCli(['doctor', '--root', tree.root, ...at, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    const doc = JSON.parse(run.stdout) as DoctorJson;
    assertMatchesSchema('doctor', doc);
    expect(doc.ok).toBe(true);
    const ids = doc.checks.map((c) => c.id);
    for (const id of ['node', 'native:better-sqlite3', 'native:hnswlib-node', 'native:onnxruntime-node', 'native:tree-sitter', 'grammar:typescript', 'grammar:python', 'grammar:swift', 'model', 'models-dir', 'cache-dir', 'index']) {
      expect(ids).toContain(id);
    }
    expect(doc.checks.every((c) => c.status === 'ok'), JSON.stringify(doc.checks)).toBe(true);
    expect(check(doc, 'index')?.detail).toMatch(/6 files, \d+ chunks, verified/);

    const people = await runCli(['doctor', tree.root, ...at]);
    expect(people.code, people.stderr).toBe(0);
    expect(people.stdout).toMatch(/^ok +node +Node \d+/m);
    expect(people.stdout).toMatch(/^ok +model +all-MiniLM-L6-v2 loads from /m);
    expect(people.stdout).toMatch(/^ok +index +.* verified/m);
    expect(people.stdout.trim().split('\n').at(-1)).toBe('all checks passed.');
  });

  it('reports a cache dir below a file as a problem with a fix, and exits 2', async () => {
    const tree = await createTempTree(SMALL_REPO);
    trees.push(tree);
    const file = path.join(path.dirname(tree.root), 'a-file');
    await writeFile(file, 'not a folder');
    const run = await runCli(['doctor', tree.root, '--cache-dir', path.join(file, 'cache')]);
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(/^problem +cache-dir +cache dir: .*a-file is a file, not a folder$/m);
    expect(run.stdout).toMatch(/^ +fix: pass a writable --cache-dir/m);
    expect(run.stdout.trim().split('\n').at(-1)).toBe('1 problem(s) found.');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('reports a read-only cache dir as a problem, and exits 2 (--json: ok false)', async () => {
    const tree = await createTempTree(SMALL_REPO);
    trees.push(tree);
    const base = path.dirname(tree.root);
    await chmod(base, 0o755); // mkdtemp made it private; the other user must reach the root and the cache
    await mkdir(tree.cacheDir);
    await chmod(tree.cacheDir, 0o555);
    // File modes do not bind root: as root, the CLI runs as nobody, for whom the folder is read-only.
    const as = isRoot ? { uid: NOBODY, gid: NOBODY } : {};
    const run = await runCli(['doctor', tree.root, '--cache-dir', tree.cacheDir, '--json'], as);
    expect(run.code, run.stderr).toBe(2);
    const doc = JSON.parse(run.stdout) as DoctorJson;
    assertMatchesSchema('doctor', doc);
    expect(doc.ok).toBe(false);
    expect(check(doc, 'cache-dir')).toMatchObject({ status: 'problem', detail: expect.stringMatching(/cannot be written \((EACCES|EPERM|EROFS)\)/) });
    expect(check(doc, 'cache-dir')?.fix).toMatch(/--cache-dir/);
  });
});
