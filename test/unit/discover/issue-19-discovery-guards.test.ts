import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverFiles } from '../../../src/discover/discover-files.js';
import { inspectFile } from '../../../src/discover/file-guards.js';
import { createPathFilter } from '../../../src/discover/path-filter.js';

// Issue 19, finding 8: the minified guard read only the first 64 KiB (a normal head and one huge line after it
// became 6,793 chunks), and a cache dir inside the root not named index-cache was indexed.

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'codescout-guards-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('issue 19: the minified guard reads the whole file', () => {
  it('skips a file whose huge line comes after a normal 64 KiB head', async () => {
    const head = 'export const a = 1;\n'.repeat(4000); // 80,000 chars of ordinary code
    await writeFile(join(root, 'late.ts'), `${head}export const blob = "${'A'.repeat(900_000)}";\n`);
    await writeFile(join(root, 'fine.ts'), head);
    const found = await discoverFiles({ root });
    expect(found.files.map((f) => f.path)).toEqual(['fine.ts']);
    expect(found.skipped).toEqual([{ path: 'late.ts', reason: 'minified (a line over 1000 chars)' }]);
    expect(await inspectFile({ root, absPath: join(root, 'late.ts') })).toEqual({ skipped: { path: 'late.ts', reason: 'minified (a line over 1000 chars)' } });
  });
});

describe('issue 19: the active cache dir is never indexed, whatever its name', () => {
  it('leaves out excludeDirs by path and through links, and only those folders', async () => {
    const cache = join(root, 'my-cache');
    await mkdir(join(cache, 'repo-0123456789'), { recursive: true });
    await writeFile(join(cache, 'repo-0123456789', 'vectors.json'), '{"formatVersion":1}\n');
    await mkdir(join(root, 'src'), { recursive: true });
    await writeFile(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
    await mkdir(join(root, 'src', 'my-cache'), { recursive: true }); // same name elsewhere: indexed
    await writeFile(join(root, 'src', 'my-cache', 'b.json'), '{"b":1}\n');
    await symlink('../my-cache', join(root, 'src', 'linked-cache'));
    const found = await discoverFiles({ root, excludeDirs: [cache, join(cache, 'repo-0123456789'), root, join(root, '..')] });
    expect(found.files.map((f) => f.path)).toEqual(['src/a.ts', 'src/my-cache/b.json']);
    expect(found.skipped).toEqual([]);
    expect(createPathFilter(root, { excludeDirs: [cache] }).isIgnored('my-cache/repo-0123456789/vectors.json', false)).toBe(true);
  });
});
