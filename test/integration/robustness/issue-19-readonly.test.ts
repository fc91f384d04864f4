import { chmod, mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { letOtherUsersReachCheckout, NOBODY, runCli, type SpawnCliOptions } from '../../helpers/cli.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';
import { expectCleanFailure, parseOneJson } from '../../helpers/robustness.js';
import { assertMatchesSchema } from '../mcp/mcp-client.js';

// Issue 19, finding 7: an index in a read-only location could not even be searched ("unexpected error ... please
// report it", exit 1). Readers must open it read-only; writers must fail with exit 2 and one line.
//
// File modes do not bind root, and the suite runs as root on CI. So when this process is root, the CLI children run
// as an unprivileged user (nobody, 65534) for whom the modes below do make the cache read-only: the same EACCES
// any non-root user meets. Run as non-root, the children run as this user and the modes bind it directly.

const isRoot = process.getuid?.() === 0;
let restoreModes: () => Promise<void>;
beforeAll(async () => {
  restoreModes = await letOtherUsersReachCheckout();
});
afterAll(async () => restoreModes());

let tree: TempTree;
let base: string;
let readerTmp: string;
let baseline: string;
let before: string[];
const QUERY = ['search', 'turn an ISO date string into a Date', '-k', '4', '--json'];

/** Runs the CLI as a user for whom the cache dir is read-only, with its own temp folder. */
const asReader = (args: string[]) => {
  const options: SpawnCliOptions = { env: { TMPDIR: readerTmp }, ...(isRoot ? { uid: NOBODY, gid: NOBODY } : {}) };
  return runCli([...args, '--cache-dir', tree.cacheDir], options);
};

/** Every entry below `dir` with its size and mtime: proof that nothing was written. */
async function snapshot(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of (await readdir(dir, { recursive: true })).sort()) {
    const s = await stat(path.join(dir, name));
    out.push(`${name}:${s.size}:${s.mtimeMs}`);
  }
  return out;
}

/** chmod -R: folders r-x, files r-- (or back to writable). */
async function setModes(dir: string, writable: boolean): Promise<void> {
  await chmod(dir, writable ? 0o755 : 0o555);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) await setModes(p, writable);
    else await chmod(p, writable ? 0o644 : 0o444);
  }
}

beforeAll(async () => {
  tree = await createTempTree(SMALL_REPO);
  base = path.dirname(tree.root);
  const built = await runCli(['index', tree.root, '--cache-dir', tree.cacheDir]);
  expect(built.code, built.stderr).toBe(0);
  const search = await runCli([...QUERY, '--root', tree.root, '--cache-dir', tree.cacheDir]);
  expect(search.code, search.stderr).toBe(0);
  baseline = search.stdout;
  readerTmp = path.join(base, 'reader-tmp');
  await mkdir(readerTmp);
  await chmod(readerTmp, 0o777);
  await chmod(base, 0o755); // mkdtemp made it private; the reader must reach the root and the cache
  await setModes(tree.cacheDir, false);
  before = await snapshot(tree.cacheDir);
});
afterAll(async () => {
  if (tree) await setModes(tree.cacheDir, true);
  await tree?.dispose();
});

describe('issue 19: an index in a read-only location', () => {
  it('is searched (hybrid and lexical) with the same answer, and verifies', async () => {
    const search = await asReader([...QUERY, '--root', tree.root]);
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).toBe(baseline);
    expect(search.stderr).toBe('');
    const lexical = await asReader(['search', 'parseIsoDate', '--mode', 'lexical', '-k', '1', '--json', '--root', tree.root]);
    expect(lexical.code, lexical.stderr).toBe(0);
    expect(parseOneJson(lexical)).toMatchObject({ hits: [{ path: 'src/util/dates.ts', symbol: 'parseIsoDate' }] });
    const status = await asReader(['status', tree.root, '--verify', '--json']);
    expect(status.code, status.stderr).toBe(0);
    const body = parseOneJson(status);
    assertMatchesSchema('status', body);
    expect(body).toMatchObject({ files: 6, indexState: 'ready', problems: [] });
  });

  it.each([
    [['index'], 'update the index'],
    [['index', '--rebuild'], 'rebuild the index'],
    [['watch'], 'update the index'],
  ])('refuses a writer (%j) with exit 2 and one line', async (command, action) => {
    const run = await asReader([command[0]!, tree.root, ...command.slice(1)]);
    expectCleanFailure(run, 2, new RegExp(`^codescout: Cannot ${action}: the index at .+ is read-only here \\(it can be searched, not written\\)\\. Pass a writable --cache-dir \\(or set CODESCOUT_CACHE_DIR\\)\\.\\n$`));
  });

  it('was left exactly as it was, and the readers left no temp files behind', async () => {
    expect(await snapshot(tree.cacheDir)).toEqual(before);
    expect(await readdir(readerTmp)).toEqual([]);
  });
});
