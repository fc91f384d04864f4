import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverFiles } from '../../../src/discover/discover-files.js';
import { inspectFile } from '../../../src/discover/file-guards.js';
import { readInsideRoot, readRegularFile, readTextInsideRootSync } from '../../../src/discover/open-regular-file.js';
import { createPathFilter } from '../../../src/discover/path-filter.js';
import { AbortError } from '../../../src/errors.js';

// Issue 19: one read rule for every file codescout reads. The real path (every link resolved) must lie inside the
// real root, and only regular files are read: a FIFO never blocks open(). Each case used to read outside the root
// or hang.

let base: string;
let root: string;
let realRoot: string;
const SECRET = 'zqxIssue19OutsideToken';

async function write(rel: string, content: string): Promise<void> {
  await mkdir(dirname(join(base, rel)), { recursive: true });
  await writeFile(join(base, rel), content);
}
const mkfifo = (abs: string): void => void execFileSync('mkfifo', [abs]);

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'codescout-issue19-'));
  root = join(base, 'repo');
  await write('repo/src/inside.ts', 'export const inside = 1;\n');
  await write('outside/secret.ts', `export const ${SECRET} = 1;\n`);
  await symlink('..', join(root, 'up')); // path text stays inside the root; the real path leaves it
  realRoot = await realpath(root);
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('issue 19: the read rule (readInsideRoot, readRegularFile)', () => {
  it('reads a regular file inside the root', async () => {
    const read = await readInsideRoot({ realRoot, absPath: join(root, 'src/inside.ts') });
    expect('bytes' in read && read.bytes.toString()).toBe('export const inside = 1;\n');
  });

  it('refuses a path through an in-root link that leaves the root, and a file link to outside', async () => {
    await symlink(join(base, 'outside/secret.ts'), join(root, 'src/leak.ts'));
    expect(await readInsideRoot({ realRoot, absPath: join(root, 'up/outside/secret.ts') })).toEqual({ refused: { reason: 'symlink resolves outside the root' } });
    expect(await readInsideRoot({ realRoot, absPath: join(root, 'src/leak.ts') })).toEqual({ refused: { reason: 'symlink resolves outside the root' } });
    expect(readTextInsideRootSync({ realRoot, absPath: join(root, 'up/outside/secret.ts') })).toEqual({ refused: { reason: 'symlink resolves outside the root' } });
  });

  it('refuses a FIFO, directly and behind a link, without blocking', async () => {
    mkfifo(join(root, 'src/pipe.ts'));
    await symlink('pipe.ts', join(root, 'src/linked.ts'));
    const fifo = { refused: { reason: 'not a regular file (FIFO)' } };
    expect(await readInsideRoot({ realRoot, absPath: join(root, 'src/pipe.ts') })).toEqual(fifo);
    expect(await readInsideRoot({ realRoot, absPath: join(root, 'src/linked.ts') })).toEqual(fifo);
    expect(await readRegularFile(join(root, 'src/linked.ts'))).toEqual(fifo);
    expect(readTextInsideRootSync({ realRoot, absPath: join(root, 'src/pipe.ts') })).toEqual(fifo);
    expect(await readRegularFile(join(root, 'src/missing.ts'))).toEqual({ refused: { reason: 'unreadable: ENOENT', code: 'ENOENT' } });
  });

  it('inspectFile (the watcher and reindex) refuses both, with the reason', async () => {
    mkfifo(join(root, 'src/pipe.ts'));
    await symlink('pipe.ts', join(root, 'src/linked.ts'));
    expect(await inspectFile({ root, absPath: join(root, 'src/linked.ts'), relPath: 'src/linked.ts' })).toEqual({ skipped: { path: 'src/linked.ts', reason: 'not a regular file (FIFO)' } });
    expect(await inspectFile({ root, absPath: join(root, 'up/outside/secret.ts'), relPath: 'up/outside/secret.ts' })).toEqual({
      skipped: { path: 'up/outside/secret.ts', reason: 'symlink resolves outside the root' },
    });
  });
});

describe('issue 19: discovery', () => {
  it('reports a FIFO, direct and behind a .ts link, as skipped and indexes the rest', async () => {
    mkfifo(join(root, 'src/pipe.ts'));
    await mkdir(join(root, 'build')); // never walked: the FIFO is reached only through the link
    mkfifo(join(root, 'build/queue'));
    await symlink('../build/queue', join(root, 'src/queue.ts'));
    const found = await discoverFiles({ root });
    expect(found.files.map((f) => f.path)).toEqual(['src/inside.ts']);
    expect(found.skipped).toEqual([
      { path: 'src/pipe.ts', reason: 'not a regular file (FIFO)' },
      { path: 'src/queue.ts', reason: 'not a regular file (FIFO)' },
      { path: 'up', reason: 'symlink resolves outside the root' },
    ]);
  });

  it('an ignore file that is a link out of the root is not read', async () => {
    await write('outside/rules', 'inside.ts\n');
    await symlink(join(base, 'outside/rules'), join(root, 'src/.gitignore'));
    expect(createPathFilter(root).isIgnored('src/inside.ts', false)).toBe(false);
  });

  it('honours the abort signal: an aborted walk throws AbortError', async () => {
    for (let i = 0; i < 50; i++) await write(`repo/many/d${i}/f${i}.ts`, `export const f${i} = ${i};\n`);
    const controller = new AbortController();
    controller.abort();
    await expect(discoverFiles({ root, signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
    const midway = new AbortController();
    const walk = discoverFiles({ root, signal: midway.signal });
    midway.abort();
    await expect(walk).rejects.toThrow('Discovery aborted');
  });
});
