import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresCatalog } from '../../../src/store/postgres/postgres-catalog.js';
import { runCli, spawnCli, waitForExit, waitForOutput } from '../../helpers/cli.js';
import { startMcp, until } from '../mcp/mcp-client.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';
import { freePort, isPostgresSkipped, startPostgres, startReplica, waitFor, withClient, type PostgresServer } from '../../support/postgres-server.js';

const git = promisify(execFile);

// Issue 18: the same fixture indexed into the embedded store and into PostgreSQL through the real CLI gives the same
// search and query answers; the namespace comes from the git checkout; an unreachable server exits 8 in one line.

const SEARCHES = ['token bucket refill', 'parse an ISO date', 'hashPassword', 'invoice total with tax', 'throttle requests per second'];
const NS = ['--repo', 'fixtures/small', '--ref', 'main'];

describe.skipIf(isPostgresSkipped)('issue 18: codescout index/search/query/status --store postgres://... (real CLI child)', () => {
  let server: PostgresServer;
  let tree: TempTree;
  let store: string[];

  beforeAll(async () => {
    server = await startPostgres();
    store = ['--store', server.connectionString];
    tree = await createTempTree(SMALL_REPO);
    const embedded = await runCli(['index', tree.root, '--cache-dir', tree.cacheDir, '--json']);
    expect(embedded.code, embedded.stderr).toBe(0);
    const shared = await runCli(['index', tree.root, '--cache-dir', tree.cacheDir, ...store, ...NS, '--json']);
    expect(shared.code, shared.stderr).toBe(0);
    const [a, b] = [JSON.parse(embedded.stdout), JSON.parse(shared.stdout)] as Array<{ files: number; chunks: number; embedded: number }>;
    expect({ files: b!.files, chunks: b!.chunks }).toEqual({ files: a!.files, chunks: a!.chunks });
  });
  afterAll(async () => {
    await tree?.dispose();
    await server?.stop();
  });

  it('search --json gives the same hits, scores and similarities from either store', async () => {
    for (const mode of ['hybrid', 'lexical', 'vector']) {
      for (const text of SEARCHES) {
        const args = ['search', text, '--root', tree.root, '--cache-dir', tree.cacheDir, '--mode', mode, '-k', '5', '--json', '--no-server'];
        const [embedded, shared] = await Promise.all([runCli(args), runCli([...args, ...store, ...NS])]);
        expect(embedded.code, embedded.stderr).toBe(0);
        expect(shared.code, shared.stderr).toBe(0);
        const hits = JSON.parse(embedded.stdout).hits as unknown[];
        // Lexical search finds only chunks with the words: fewer than k for some texts, never none here.
        expect(hits.length, `${mode} "${text}"`).toBe(mode === 'lexical' ? Math.min(5, hits.length) : 5);
        expect(hits.length, `${mode} "${text}"`).toBeGreaterThan(0);
        expect(JSON.parse(shared.stdout).hits, `${mode} "${text}"`).toEqual(hits);
      }
    }
  });

  it('query --json finds the same files with the same relevance from either store', async () => {
    const args = ['query', 'where are requests throttled with a token bucket', '--root', tree.root, '--cache-dir', tree.cacheDir, '--json', '--no-server'];
    const [embedded, shared] = await Promise.all([runCli(args), runCli([...args, ...store, ...NS])]);
    expect(embedded.code, embedded.stderr).toBe(0);
    expect(shared.code, shared.stderr).toBe(0);
    const files = (out: string) => {
      const r = JSON.parse(out) as { results: Array<{ path: string; relevance: number }>; related: Array<{ path: string; relevance: number }> };
      return [...r.results, ...r.related].map((f) => [f.path, f.relevance]);
    };
    expect(files(embedded.stdout)[0]).toEqual(['src/net/throttle.ts', expect.any(Number)]);
    expect(files(shared.stdout)).toEqual(files(embedded.stdout));
  });

  it('status --json reads the shared index: the same files and chunks, verified', async () => {
    const [embedded, shared] = await Promise.all([
      runCli(['status', tree.root, '--cache-dir', tree.cacheDir, '--json']),
      runCli(['status', tree.root, '--cache-dir', tree.cacheDir, ...store, ...NS, '--json', '--verify']),
    ]);
    expect(shared.code, shared.stderr).toBe(0);
    const [a, b] = [JSON.parse(embedded.stdout), JSON.parse(shared.stdout)];
    expect({ files: b.files, chunks: b.chunks, vectors: b.vectors, model: b.model, indexState: b.indexState, problems: b.problems })
      .toEqual({ files: a.files, chunks: a.chunks, vectors: a.vectors, model: a.model, indexState: 'ready', problems: [] });
  });

  it('takes the namespace from the git checkout: origin as host/owner/name, the current branch', async () => {
    const checkout = await createTempTree({ 'src/geo/bearing.ts': 'export function bearingOf(degrees: number): string {\n  return degrees < 180 ? "east" : "west";\n}\n' });
    try {
      await git('git', ['-C', checkout.root, 'init', '-q', '-b', 'feature/compass']);
      await git('git', ['-C', checkout.root, 'remote', 'add', 'origin', 'https://ci-bot:s3cret@github.com/acme/shop.git']);
      const run = await runCli(['index', checkout.root, '--cache-dir', checkout.cacheDir, ...store, '--json']);
      expect(run.code, run.stderr).toBe(0);
      const catalog = await PostgresCatalog.open({ connectionString: server.connectionString, repo: 'github.com/acme/shop', ref: 'feature/compass', mode: 'read' });
      try {
        expect((await catalog.listFiles()).map((f) => f.path)).toEqual(['src/geo/bearing.ts']);
      } finally {
        await catalog.close();
      }
    } finally {
      await checkout.dispose();
    }
  });

  it('a reader on a branch CI never indexed reads the origin\'s default branch, and says so; a --ref given by hand is kept', async () => {
    const checkout = await createTempTree({ 'src/geo/heading.ts': 'export function headingOf(degrees: number): string {\n  return degrees < 180 ? "east" : "west";\n}\n' });
    try {
      await git('git', ['-C', checkout.root, 'init', '-q', '-b', 'my-own-branch']);
      await git('git', ['-C', checkout.root, 'remote', 'add', 'origin', 'https://github.com/acme/compass.git']);
      await git('git', ['-C', checkout.root, 'symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/trunk']);
      const built = await runCli(['index', checkout.root, '--cache-dir', checkout.cacheDir, ...store, '--ref', 'trunk', '--no-progress']);
      expect(built.code, built.stderr).toBe(0);
      const search = await runCli(['search', 'heading in degrees', '--root', checkout.root, '--cache-dir', checkout.cacheDir, ...store, '--json']);
      expect(search.code, search.stderr).toBe(0);
      expect(JSON.parse(search.stdout).hits[0]).toMatchObject({ path: 'src/geo/heading.ts' });
      expect(search.stderr).toContain('github.com/acme/compass@my-own-branch has no shared index; reading github.com/acme/compass@trunk');
      const pinned = await runCli(['search', 'heading in degrees', '--root', checkout.root, '--cache-dir', checkout.cacheDir, ...store, '--ref', 'my-own-branch']);
      expect(pinned.code).toBe(2);
      expect(pinned.stderr).toContain('has no index of github.com/acme/compass@my-own-branch');
    } finally {
      await checkout.dispose();
    }
  });

  it('a reader of a namespace nobody built, and a folder that is no git checkout, get one line and exit 2', async () => {
    const unbuilt = await runCli(['search', 'token', '--root', tree.root, '--cache-dir', tree.cacheDir, ...store, '--repo', 'nobody/built-this', '--ref', 'main']);
    expect(unbuilt.code).toBe(2);
    expect(unbuilt.stderr.trim().split('\n')).toHaveLength(1);
    expect(unbuilt.stderr).toContain('has no index of nobody/built-this@main');
    const noGit = await runCli(['status', tree.root, '--cache-dir', tree.cacheDir, ...store]);
    expect(noGit.code).toBe(2);
    expect(noGit.stderr).toContain('is not a git checkout');
  });

  it('an unreachable server: one line without the password, exit 8', async () => {
    const port = await freePort();
    const run = await runCli(['search', 'token', '--root', tree.root, '--cache-dir', tree.cacheDir, '--store', `postgres://codescout:hunter2@127.0.0.1:${port}/codescout`, ...NS]);
    expect(run.code).toBe(8);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).not.toContain('hunter2');
    expect(run.stderr).toContain(`127.0.0.1:${port}`);
  });

  it('watch --store keeps this checkout\'s edits in a local layer: another shell\'s search --store finds them; the shared index is untouched', async () => {
    const sharedPaths = async (): Promise<string[]> => {
      const shared = await PostgresCatalog.open({ connectionString: server.connectionString, repo: NS[1]!, ref: NS[3]!, mode: 'read' });
      try {
        return (await shared.listFiles()).map((f) => f.path);
      } finally {
        await shared.close();
      }
    };
    const before = await sharedPaths();
    const child = spawnCli(['watch', tree.root, '--cache-dir', tree.cacheDir, ...store, ...NS]);
    const search = (text: string) => runCli(['search', text, '--root', tree.root, '--cache-dir', tree.cacheDir, ...store, ...NS, '-k', '3', '--json']);
    try {
      await waitForOutput(child, 'stdout', /watching .* \(6 files, \d+ chunks\)/);
      const added = waitForOutput(child, 'stdout', /1 changed, 0 removed: 1 chunks embedded/);
      await tree.write('src/geo/compass.ts', 'export function bearingDegrees(from: number, to: number): number {\n  return (to - from + 360) % 360;\n}\n');
      await added;
      const found = await search('compass bearing in degrees between two headings');
      expect(found.code, found.stderr).toBe(0);
      expect(JSON.parse(found.stdout).hits[0]).toMatchObject({ path: 'src/geo/compass.ts', symbol: 'bearingDegrees' });
      const removed = waitForOutput(child, 'stdout', /0 changed, 1 removed/);
      await tree.remove('src/billing/invoice.ts');
      await removed;
      const gone = await search('sum the lines of an invoice and add tax');
      expect(JSON.parse(gone.stdout).hits.map((h: { path: string }) => h.path)).not.toContain('src/billing/invoice.ts');
    } finally {
      child.kill('SIGTERM');
    }
    expect((await waitForExit(child)).code).toBe(0);
    expect(await sharedPaths()).toEqual(before);
    await tree.write('src/billing/invoice.ts', SMALL_REPO['src/billing/invoice.ts']!);
    await tree.remove('src/geo');
  });

  it('search --store against a streaming replica answers as the primary; index there exits 8 (read-only)', async () => {
    const replica = await startReplica(server);
    try {
      const lsn = await withClient(server.connectionString, async (c) => (await c.query('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0].lsn as string);
      await waitFor(`the replica to replay ${lsn}`, () => withClient(replica.connectionString, async (c) => (await c.query(
        'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [lsn],
      )).rows[0].done as boolean));
      const args = ['search', 'token bucket refill', '--root', tree.root, '--cache-dir', tree.cacheDir, ...NS, '-k', '5', '--json'];
      const [primary, standby] = await Promise.all([runCli([...args, ...store]), runCli([...args, '--store', replica.connectionString])]);
      expect(standby.code, standby.stderr).toBe(0);
      expect(JSON.parse(standby.stdout).hits).toEqual(JSON.parse(primary.stdout).hits);
      const write = await runCli(['index', tree.root, '--cache-dir', tree.cacheDir, '--store', replica.connectionString, ...NS, '--no-progress']);
      expect(write.code).toBe(8);
      expect(write.stderr.trim().split('\n')).toHaveLength(1);
      expect(write.stderr).not.toContain(replica.password);
    } finally {
      await replica.stop();
    }
  });

  it('index --lock-wait waits for the namespace\'s other writer; without it the second writer exits 5 naming the holder', async () => {
    const holder = await PostgresCatalog.open({ connectionString: server.connectionString, repo: NS[1]!, ref: NS[3]!, mode: 'write' });
    let released = false;
    try {
      const refused = await runCli(['index', tree.root, '--cache-dir', tree.cacheDir, ...store, ...NS, '--no-progress']);
      expect(refused.code).toBe(5);
      expect(refused.stderr).toContain(`pid ${process.pid}`);
      const waiting = runCli(['index', tree.root, '--cache-dir', tree.cacheDir, ...store, ...NS, '--no-progress', '--json', '--lock-wait', '60']);
      await new Promise((r) => setTimeout(r, 1500));
      await holder.close();
      released = true;
      const waited = await waiting;
      expect(waited.code, waited.stderr).toBe(0);
      expect(JSON.parse(waited.stdout)).toMatchObject({ files: 6, embedded: 0 });
      const bad = await runCli(['index', tree.root, '--cache-dir', tree.cacheDir, ...store, ...NS, '--lock-wait', 'soon']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--lock-wait takes a number of seconds');
    } finally {
      if (!released) await holder.close();
    }
  });

  it('mcp --store answers from the shared index and, watching, from this checkout\'s edits; the shared index is untouched', async () => {
    const mcp = await startMcp(tree, [...store, ...NS]);
    const hitsOf = async (query: string) =>
      ((await mcp.call('search_code', { query, k: 3 })).structuredContent as { hits: Array<{ path: string; symbol: string }> }).hits;
    try {
      expect((await hitsOf('hash a password with a salt'))[0]).toMatchObject({ path: 'src/users/password.ts', symbol: 'hashPassword' });
      await until(async () => ((await mcp.call('index_status')).structuredContent as { watching: boolean }).watching, { timeoutMs: 30_000, what: 'the watcher' });
      await tree.write('src/geo/compass.ts', 'export function bearingDegrees(from: number, to: number): number {\n  return (to - from + 360) % 360;\n}\n');
      await until(async () => (await hitsOf('compass bearing in degrees'))[0]?.symbol === 'bearingDegrees', { timeoutMs: 30_000, what: 'the edit to be searchable' });
      const context = await mcp.call('retrieve_context', { text: 'compass bearing in degrees between two headings' });
      expect(JSON.stringify(context.structuredContent)).toContain('src/geo/compass.ts');
    } finally {
      await mcp.close();
      await tree.remove('src/geo');
    }
    const shared = await PostgresCatalog.open({ connectionString: server.connectionString, repo: NS[1]!, ref: NS[3]!, mode: 'read' });
    try {
      expect((await shared.listFiles()).map((f) => f.path)).not.toContain('src/geo/compass.ts');
    } finally {
      await shared.close();
    }
  });

  it('serve --store has nothing to hold warm: one line, exit 2', async () => {
    const run = await runCli(['serve', tree.root, '--cache-dir', tree.cacheDir, ...store, ...NS]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('search and query read it in their own process');
  });
});
