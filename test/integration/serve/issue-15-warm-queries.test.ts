import type { ChildProcess } from 'node:child_process';
import { lstat, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listenForLines } from '../../../src/serve/line-server.js';
import { SERVE_PROTOCOL } from '../../../src/serve/protocol.js';
import { runCli, spawnCli, waitForExit, waitForOutput, type CliRun } from '../../helpers/cli.js';
import { createTempTree, SMALL_REPO, type TempTree } from '../../helpers/fixture-tree.js';
import { startMcp } from '../mcp/mcp-client.js';

// Issue 15, "Warm queries": a running serve, watch or mcp answers CLI search and query over the index's socket, with
// the output of the in-process path; without a server (or with a dead or foreign one) the CLI answers in-process.

const SEARCH = 'token bucket refill';
const TASK = 'throttle requests from a client';

let tree: TempTree;
let socketPath: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  tree = await createTempTree(SMALL_REPO);
  expect((await cli(['index', tree.root, '--no-progress'])).code).toBe(0);
  const status = JSON.parse((await cli(['status', tree.root, '--json'])).stdout) as { indexDir: string };
  socketPath = path.join(status.indexDir, 'serve.sock');
});
afterEach(async () => {
  for (const child of children.splice(0)) {
    child.kill('SIGTERM');
    await waitForExit(child);
  }
});
afterAll(async () => {
  await tree.dispose();
});

function cli(args: readonly string[]): Promise<CliRun> {
  return runCli([...args, '--cache-dir', tree.cacheDir]);
}

/** `search`/`query` with --verbose: the line saying which path answered, and stderr without it. */
async function verbose(args: readonly string[]): Promise<CliRun & { answeredBy: string; rest: string }> {
  const run = await cli([...args, '--root', tree.root, '--verbose']);
  const [first, ...rest] = run.stderr.split('\n');
  return { ...run, answeredBy: first ?? '', rest: rest.join('\n') };
}

/** Starts `codescout serve` and waits for its ready line. */
async function startServe(): Promise<ChildProcess> {
  const child = spawnCli(['serve', tree.root, '--cache-dir', tree.cacheDir]);
  children.push(child);
  await waitForOutput(child, 'stdout', new RegExp(`serving .* at ${escape(socketPath)}\\. Ctrl-C to stop\\.`));
  return child;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function servedBy(pid: number): RegExp {
  return new RegExp(`^codescout: answered by the query server at ${escape(socketPath)} \\(pid ${pid}\\) in \\d+ ms$`);
}

/** A query result with the timings (the only thing that differs between two runs) zeroed. */
function withoutTimings(json: string): unknown {
  const r = JSON.parse(json) as { cycles: Array<{ ms: number }> };
  return { ...r, cycles: r.cycles.map((c) => ({ ...c, ms: 0 })) };
}

describe('warm queries through codescout serve (issue 15)', () => {
  it('search and query are answered by the server, with exactly the in-process output, people and --json', async () => {
    const serve = await startServe();
    for (const args of [['search', SEARCH], ['search', SEARCH, '--json', '--text'], ['search', SEARCH, '-C', '2', '-k', '3'], ['search', SEARCH, '-l'], ['query', TASK, '--max-cycles', '2']]) {
      const warm = await verbose(args);
      const cold = await verbose([...args, '--no-server']);
      expect(warm.answeredBy, args.join(' ')).toMatch(servedBy(serve.pid!));
      expect(cold.answeredBy).toBe('codescout: answered in-process (--no-server)');
      const strip = (s: string): string => (args[0] === 'query' ? s.replace(/, \d+ ms$/gm, '') : s);
      expect(strip(warm.stdout), args.join(' ')).toBe(strip(cold.stdout));
      expect(warm.rest).toBe(cold.rest);
      expect([warm.code, cold.code]).toEqual([0, 0]);
    }
    expect(JSON.parse((await verbose(['search', SEARCH, '--json'])).stdout).hits[0]).toMatchObject({ path: 'src/util/token-bucket.ts' });
    const warmQuery = await verbose(['query', TASK, '--json']);
    const coldQuery = await verbose(['query', TASK, '--json', '--no-server']);
    expect(warmQuery.answeredBy).toMatch(servedBy(serve.pid!));
    expect(withoutTimings(warmQuery.stdout)).toEqual(withoutTimings(coldQuery.stdout));
    // Without --verbose nothing is added: stderr is the in-process stderr.
    const quiet = await cli(['search', SEARCH, '--root', tree.root]);
    expect(quiet).toMatchObject({ code: 0, stderr: '', stdout: (await cli(['search', SEARCH, '--root', tree.root, '--no-server'])).stdout });
  });

  it('a user error met by the server gives the in-process message and exit code', async () => {
    const serve = await startServe();
    for (const args of [['search', SEARCH, '--include', 'src/['], ['search', SEARCH, '--mode', 'fuzzy'], ['search', SEARCH, '-k', '1e3'], ['query', TASK, '--max-cycles', 'x'], ['search', 'x'.repeat(10_001)]]) {
      const warm = await verbose(args);
      const cold = await verbose([...args, '--no-server']);
      expect(warm.answeredBy, args.join(' ').slice(0, 80)).toMatch(servedBy(serve.pid!));
      expect(warm.rest).toBe(cold.rest);
      expect(warm.rest).toMatch(/^codescout: .+\n$/);
      expect([warm.code, warm.stdout]).toEqual([cold.code, cold.stdout]);
      expect(warm.code).toBe(2);
    }
  });

  it('--judge-cmd always runs in-process, beside the CLI', async () => {
    await startServe();
    const run = await verbose(['query', TASK, '--judge-cmd', 'exit 3']);
    expect(run.answeredBy).toBe('codescout: answered in-process (--judge-cmd runs its command from this process)');
    expect(run.code).toBe(7);
  });

  it('the socket is 0600 and one server per index: a second serve exits 5 naming the first', async () => {
    const serve = await startServe();
    const s = await lstat(socketPath);
    expect([s.isSocket(), s.mode & 0o777]).toEqual([true, 0o600]);
    const second = await cli(['serve', tree.root]);
    expect(second.code).toBe(5);
    expect(second.stderr).toBe(`codescout: another codescout process (pid ${serve.pid}) already answers queries for this index at ${socketPath}. Use that one, or stop it first.\n`);
    expect((await verbose(['search', SEARCH])).answeredBy).toMatch(servedBy(serve.pid!));
    serve.kill('SIGTERM');
    expect((await waitForExit(serve)).code).toBe(0);
    await expect(lstat(socketPath)).rejects.toMatchObject({ code: 'ENOENT' }); // removed on a clean stop
  });
});

describe('no server, a dead one, or one of another version: the CLI answers in-process (issue 15)', () => {
  it('a file that is not a socket at the socket path: serve says so (exit 2) and leaves it alone', async () => {
    await writeFile(socketPath, 'not a socket\n');
    try {
      const run = await cli(['serve', tree.root]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`${socketPath} exists and is not a socket of this user. Remove it and start again.`);
      expect(await readFile(socketPath, 'utf8')).toBe('not a socket\n');
    } finally {
      await rm(socketPath, { force: true });
    }
  });

  it('with no server the answer is in-process and the same', async () => {
    const run = await verbose(['search', SEARCH]);
    expect(run.answeredBy).toBe(`codescout: answered in-process (no server at ${socketPath})`);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe((await cli(['search', SEARCH, '--root', tree.root, '--no-server'])).stdout);
  });

  it('a socket left by a killed server is detected: the CLI falls back at once, and the next server replaces it', async () => {
    const killed = await startServe();
    killed.kill('SIGKILL');
    await waitForExit(killed);
    expect((await lstat(socketPath)).isSocket()).toBe(true); // left behind
    const started = Date.now();
    const run = await verbose(['search', SEARCH]);
    expect(run.answeredBy).toMatch(new RegExp(`^codescout: answered in-process \\(${escape(socketPath)}: connect ECONNREFUSED`));
    expect(run.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(60_000);
    const next = await startServe();
    expect((await verbose(['search', SEARCH])).answeredBy).toMatch(servedBy(next.pid!));
  });

  it('a server of another version is not believed: its answer is never printed', async () => {
    await rm(socketPath, { force: true }); // a socket an earlier failed test may have left
    const fake = await listenForLines({
      socketPath,
      maxLineBytes: 1 << 20,
      answer: async () => JSON.stringify({ protocol: SERVE_PROTOCOL + 1, version: '9.9.9', pid: 1, status: 'answered', stdout: 'FAKE\n', stderr: '', exitCode: 0 }),
    });
    try {
      const run = await verbose(['search', SEARCH]);
      expect(run.answeredBy).toBe(`codescout: answered in-process (the server at ${socketPath} is codescout 9.9.9, protocol ${SERVE_PROTOCOL + 1})`);
      expect(run.stdout).not.toContain('FAKE');
      expect(run.stdout).toBe((await cli(['search', SEARCH, '--root', tree.root, '--no-server'])).stdout);
    } finally {
      await fake.close();
    }
  });
});

describe('watch and mcp answer warm queries too (issue 15)', () => {
  it('a running watch answers, and its answers follow the edits it applies', async () => {
    const watch = spawnCli(['watch', tree.root, '--cache-dir', tree.cacheDir]);
    children.push(watch);
    await waitForOutput(watch, 'stdout', /watching /);
    expect((await verbose(['search', SEARCH])).answeredBy).toMatch(servedBy(watch.pid!));
    const batch = waitForOutput(watch, 'stdout', /1 changed, 0 removed[^\n]*\n {2}changed: src\/geo\/compass\.ts\n/);
    await tree.write('src/geo/compass.ts', 'export function bearingDegrees(from: number, to: number): number {\n  return (to - from + 360) % 360;\n}\n');
    await batch;
    const run = await verbose(['search', 'compass bearing in degrees', '-l', '-k', '1']);
    expect(run.answeredBy).toMatch(servedBy(watch.pid!));
    expect(run.stdout).toBe('src/geo/compass.ts\n');
    await tree.remove('src/geo/compass.ts');
  });

  it('a running MCP server answers', async () => {
    const mcp = await startMcp(tree, ['--no-watch']);
    try {
      await waitFor(() => mcp.stderr().includes(`codescout: answering search and query at ${socketPath}`));
      const run = await verbose(['search', SEARCH]);
      expect(run.answeredBy).toMatch(new RegExp(`^codescout: answered by the query server at ${escape(socketPath)} \\(pid \\d+\\)`));
      expect(run.stdout).toBe((await cli(['search', SEARCH, '--root', tree.root, '--no-server'])).stdout);
    } finally {
      await mcp.close();
    }
  });
});

async function waitFor(probe: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
