import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverFiles } from '../../../src/discover/index.js';
import { openIndex } from '../../../src/index.js';
import { runCli } from '../../helpers/cli.js';
import { createTempTree, type TempTree } from '../../helpers/fixture-tree.js';
import { indexDirOf, parseOneJson } from '../../helpers/robustness.js';

// Issue 9: hostile trees on a real tmp filesystem. Nothing outside the root is read or stored, odd names keep
// every JSON output valid, huge and binary files are skipped by their guards, and races with the file system
// end in a consistent index.

const trees: TempTree[] = [];
afterEach(async () => {
  for (const t of trees.splice(0)) await t.dispose();
});
async function tempTree(files: Record<string, string> = {}): Promise<TempTree> {
  const t = await createTempTree(files);
  trees.push(t);
  return t;
}
const isRoot = process.getuid?.() === 0;

interface IndexSummary { files: number; chunks: number; embedded: number; removed: number; skipped: number }
async function indexJson(t: TempTree, extra: string[] = []): Promise<IndexSummary & { stderr: string }> {
  const run = await runCli(['index', t.root, '--cache-dir', t.cacheDir, '--json', ...extra]);
  expect(run.code, run.stderr).toBe(0);
  return { ...(parseOneJson(run) as IndexSummary), stderr: run.stderr };
}
async function indexedPaths(t: TempTree): Promise<string[]> {
  const index = await openIndex({ root: t.root, cacheDir: t.cacheDir, offline: true });
  try {
    expect((await index.verify())).toEqual([]);
    return (await index.store.catalog.listFiles()).map((f) => f.path).sort();
  } finally {
    await index.close();
  }
}
/** Raw bytes of the catalog and its WAL: what is stored, whatever the tables say. */
async function storedBytes(t: TempTree): Promise<string> {
  const dir = indexDirOf(t.cacheDir, t.root);
  const parts = await Promise.all(['catalog.sqlite', 'catalog.sqlite-wal'].map((f) => readFile(path.join(dir, f)).catch(() => Buffer.alloc(0))));
  return Buffer.concat(parts).toString('latin1');
}

describe('symlinks', () => {
  it('links leading outside the root are never followed, read or stored; loops end', async () => {
    const t = await tempTree({ 'src/inside.ts': 'export const insideValue = 1;\n' });
    const outside = path.join(path.dirname(t.root), 'outside');
    await mkdir(outside, { recursive: true });
    const SECRET = 'zqxSecretOutsideToken';
    await writeFile(path.join(outside, 'secret.ts'), `export const ${SECRET} = 'do not index';\n`);
    await symlink(path.join(outside, 'secret.ts'), path.join(t.root, 'src/secret-link.ts'));
    await symlink(outside, path.join(t.root, 'external'));
    await symlink('../..', path.join(t.root, 'src/up')); // resolves to the root's parent: outside
    await symlink('.', path.join(t.root, 'src/here')); // a loop inside the root
    await symlink(path.join(t.root, 'src'), path.join(t.root, 'src/again')); // another loop
    await symlink('self-loop.ts', path.join(t.root, 'self-loop.ts')); // ELOOP
    await symlink('missing.ts', path.join(t.root, 'dangling.ts'));

    const found = await discoverFiles({ root: t.root });
    expect(found.files.map((f) => f.path)).toEqual(['src/inside.ts']);
    const reasons = Object.fromEntries(found.skipped.map((s) => [s.path, s.reason]));
    expect(reasons['src/secret-link.ts']).toBe('symlink resolves outside the root');
    expect(reasons['external']).toBe('symlink resolves outside the root');
    expect(reasons['src/up']).toBe('symlink resolves outside the root');
    expect(reasons['self-loop.ts']).toMatch(/^broken symlink: ELOOP/);
    expect(reasons['dangling.ts']).toMatch(/^broken symlink: ENOENT/);

    const summary = await indexJson(t);
    expect(summary.files).toBe(1);
    expect(await indexedPaths(t)).toEqual(['src/inside.ts']);
    expect(await storedBytes(t)).not.toContain(SECRET);
    const search = await runCli(['search', SECRET, '--root', t.root, '--cache-dir', t.cacheDir, '--mode', 'lexical', '--json']);
    expect(parseOneJson(search)).toEqual({ hits: [] });
  });
});

describe('odd file names', () => {
  const names = ['src/with space.ts', 'src/ünïcödé-日本語.ts', 'src/new\nline.ts', 'src/quote"and\\back.ts', 'src/tab\there.ts', 'src/emoji-🦀.ts', 'src/-dash.ts', 'src/$(touch pwned).ts'];
  it('are indexed under their exact names and every --json output stays one valid JSON document', async () => {
    const files = Object.fromEntries(names.map((n, i) => [n, `/** Odd name ${i}. */\nexport function oddlyNamed${i}(): number {\n  return ${i};\n}\n`]));
    const t = await tempTree(files);
    expect((await indexJson(t)).files).toBe(names.length);
    expect(await indexedPaths(t)).toEqual([...names].sort());

    const search = await runCli(['search', 'odd name', '--root', t.root, '--cache-dir', t.cacheDir, '-k', '20', '--json']);
    const hits = (parseOneJson(search) as { hits: Array<{ path: string }> }).hits;
    expect(new Set(hits.map((h) => h.path))).toEqual(new Set(names));
    const status = await runCli(['status', t.root, '--cache-dir', t.cacheDir, '--verify', '--json']);
    expect(parseOneJson(status)).toMatchObject({ files: names.length, problems: [] });
    const query = await runCli(['query', 'oddly named function', '--root', t.root, '--cache-dir', t.cacheDir, '--json']);
    expect(query.code, query.stderr).toBe(0);
    parseOneJson(query);
    // No shell ever saw a name: the $(...) name created nothing.
    await expect(readFile(path.join(t.root, 'src', 'pwned'))).rejects.toThrow(/ENOENT/);
  });
});

describe('size and content guards', () => {
  it('a 200 MB sparse file is skipped by the size cap from stat alone; binaries with code extensions are skipped', async () => {
    const t = await tempTree({ 'src/ok.ts': 'export const fine = true;\n' });
    const handle = await open(path.join(t.root, 'src/huge.ts'), 'w');
    await handle.truncate(200 * 1024 * 1024);
    await handle.close();
    await writeFile(path.join(t.root, 'src/blob.ts'), Buffer.concat([Buffer.from('export const x = 1;\n'), Buffer.from([0, 1, 2, 0]), randomBytes(4096)]));
    await writeFile(path.join(t.root, 'src/image.js'), Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), randomBytes(2048)]));

    const started = performance.now();
    const found = await discoverFiles({ root: t.root });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(found.files.map((f) => f.path)).toEqual(['src/ok.ts']);
    expect(found.skipped).toEqual([
      { path: 'src/blob.ts', reason: 'binary (NUL byte in the first 8 KiB)' },
      { path: 'src/huge.ts', reason: `too large (${200 * 1024 * 1024} bytes > ${1024 * 1024})` },
      { path: 'src/image.js', reason: 'binary (NUL byte in the first 8 KiB)' },
    ]);
    const summary = await indexJson(t);
    expect(summary).toMatchObject({ files: 1, skipped: 3 });
  });
});

describe('big and deep trees', () => {
  it('5,000 empty files (a scaled stand-in for 100k) index in seconds; 1,000 nested folders hold a findable file', async () => {
    const t = await tempTree();
    await mkdir(path.join(t.root, 'empty'), { recursive: true });
    for (let i = 0; i < 5000; i++) await writeFile(path.join(t.root, 'empty', `e${i}.ts`), '');
    const deep = Array.from({ length: 1000 }, () => 'd').join('/');
    await mkdir(path.join(t.root, deep), { recursive: true });
    await writeFile(path.join(t.root, deep, 'bottom.ts'), 'export function deepestHelper(): string {\n  return "bottom";\n}\n');

    const started = performance.now();
    const summary = await indexJson(t);
    expect(performance.now() - started).toBeLessThan(60_000);
    expect(summary).toMatchObject({ files: 5001, skipped: 0 }); // the empty files have no chunks; the 2,000-char path may split the deep one
    const search = await runCli(['search', 'deepestHelper', '--root', t.root, '--cache-dir', t.cacheDir, '--json']);
    expect((parseOneJson(search) as { hits: Array<{ path: string }> }).hits[0]!.path).toBe(`${deep}/bottom.ts`);
    // Unchanged: the second pass reads nothing and embeds nothing.
    expect(await indexJson(t)).toMatchObject({ files: 5001, embedded: 0, removed: 0 });
  });
});

describe('file-system races and renames', () => {
  it('a case-only rename (Foo.ts -> foo.ts) leaves one file under the new name, re-embedding nothing', async () => {
    const t = await tempTree({ 'src/Foo.ts': 'export class Foo {\n  greet(): string {\n    return "hi";\n  }\n}\n' });
    expect((await indexJson(t)).files).toBe(1);
    await rename(path.join(t.root, 'src/Foo.ts'), path.join(t.root, 'src/foo.ts'));
    expect(await indexJson(t)).toMatchObject({ files: 1, removed: 1, embedded: 0 });
    expect(await indexedPaths(t)).toEqual(['src/foo.ts']);
  });

  it('a file that vanishes between listing and reading is reported, not indexed, and not fatal', async () => {
    const t = await tempTree({ 'src/stays.ts': 'export const stays = 1;\n', 'src/goes.ts': 'export const goes = 2;\n' });
    const found = await discoverFiles({ root: t.root });
    expect(found.files.map((f) => f.path)).toEqual(['src/goes.ts', 'src/stays.ts']);
    await unlink(path.join(t.root, 'src/goes.ts'));
    const index = await openIndex({ root: t.root, cacheDir: t.cacheDir, offline: true });
    try {
      const report = await index.applyChanges({ files: found.files, removed: [] });
      expect(report.skipped).toEqual([{ path: 'src/goes.ts', reason: 'unreadable: ENOENT' }]);
      expect(report.files).toBe(1);
      expect((await index.verify())).toEqual([]);
    } finally {
      await index.close();
    }
  });

  it('files created and deleted while index runs: exit 0, and the index verifies and converges', async () => {
    const files = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`src/f${i}.ts`, `export function churn${i}(): number {\n  return ${i};\n}\n`]));
    const t = await tempTree(files);
    let stop = false;
    const churn = (async () => {
      for (let n = 0; !stop; n++) {
        const victim = path.join(t.root, `src/f${n % 120}.ts`);
        await rm(victim, { force: true });
        await writeFile(path.join(t.root, `src/new${n % 40}.ts`), `export const fresh${n} = ${n};\n`);
        await writeFile(victim, `export function churn${n % 120}(): number {\n  return ${n};\n}\n`);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    try {
      await indexJson(t);
    } finally {
      stop = true;
      await churn;
    }
    const after = await indexJson(t); // settles whatever the race left
    expect(after.files).toBe(160);
    expect((await indexedPaths(t)).length).toBe(160);
  });

  it.skipIf(isRoot)('unreadable files and folders are skipped with a reason (not runnable as root: chmod does not bind root)', async () => {
    const t = await tempTree({ 'src/ok.ts': 'export const ok = 1;\n', 'src/locked.ts': 'export const locked = 1;\n', 'closed/inner.ts': 'export const inner = 1;\n' });
    await chmod(path.join(t.root, 'src/locked.ts'), 0o000);
    await chmod(path.join(t.root, 'closed'), 0o000);
    try {
      const found = await discoverFiles({ root: t.root });
      expect(found.files.map((f) => f.path)).toEqual(['src/ok.ts']);
      expect(found.skipped.map((s) => s.path).sort()).toEqual(['closed/', 'src/locked.ts']);
    } finally {
      await chmod(path.join(t.root, 'closed'), 0o755);
    }
  });
});
