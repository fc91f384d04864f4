/**
 * Issue 15's measures, side by side in one run: cold vs warm CLI query wall time (a new `codescout` process each
 * time; cold answers in-process with --no-server, warm is answered by a running `codescout serve` over its socket),
 * and the MCP text an agent reads against `tokenBudget` for retrieve_context and search_code over a real stdio child.
 * Usage: npx tsx scripts/bench-warm.ts [root] [--runs 20]   (default root: test/fixtures/retrieval-repo; needs `npm run build`)
 * The index is built in a temp cache dir and deleted afterwards; the root is never written.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { intFlag, parseBenchArgs, runScript } from './bench/cli-args.js';
import { summarize } from './bench/measure.js';
import { fmtLatency, machineLine, printTable, type Row } from './bench/report-table.js';
import { makeTempDir, removeTempDir } from './bench/temp-tree.js';

const USAGE = 'usage: npx tsx scripts/bench-warm.ts [root] [--runs 20]';
const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.resolve(HERE, '../bin/codescout.js');
const SEARCH = 'token bucket refill';
const TASK = 'add rate limiting to the API endpoints';
const BUDGETS = [150, 1000, 4000] as const;

async function main(): Promise<void> {
  const args = parseBenchArgs(process.argv.slice(2), { values: ['runs'] });
  const root = path.resolve(args.positional[0] ?? path.join(HERE, '../test/fixtures/retrieval-repo'));
  const runs = intFlag(args, 'runs', 20);
  const startedLoad = machineLine();
  const work = await makeTempDir('warm');
  const cacheDir = path.join(work, 'cache');
  const env = { ...process.env, CODESCOUT_OFFLINE: '1' };
  const at = ['--root', root, '--cache-dir', cacheDir];
  try {
    run(['index', root, '--cache-dir', cacheDir, '--no-progress'], env);
    const rows: Row[] = [];
    const cold = { search: wallTimes(['search', SEARCH, ...at, '--no-server'], runs, env, 'in-process'), query: wallTimes(['query', TASK, ...at, '--no-server'], runs, env, 'in-process') };
    const serve = await startServe(root, cacheDir, env);
    let warm;
    try {
      warm = { search: wallTimes(['search', SEARCH, ...at], runs, env, 'server'), query: wallTimes(['query', TASK, ...at], runs, env, 'server') };
    } finally {
      serve.kill('SIGTERM');
      await new Promise((resolve) => serve.once('exit', resolve));
    }
    rows.push(['floor: node -e 0', fmtLatency(summarize(floorTimes(['-e', '0'], runs))), `${runs} new processes`]);
    rows.push(['floor: codescout --version', fmtLatency(summarize(floorTimes([CLI, '--version'], runs))), `${runs} new processes (Node start + CLI modules)`]);
    for (const command of ['search', 'query'] as const) {
      const c = summarize(cold[command].wall);
      const w = summarize(warm[command].wall);
      rows.push([`${command}: cold (in-process)`, fmtLatency(c), `${runs} new processes, --no-server`]);
      rows.push([`${command}: warm (serve)`, fmtLatency(w), `${runs} new processes, answered over the socket; p50 ${(c.p50 / w.p50).toFixed(1)}x faster`]);
      rows.push([`${command}: warm socket round trip`, fmtLatency(summarize(warm[command].roundTrip)), 'request to reply, as the CLI reports it (--verbose)']);
    }
    rows.push(...(await mcpTextRows(root, cacheDir, env)));
    printTable({ title: `codescout bench-warm: ${root}`, startedLoad, rows });
  } finally {
    await removeTempDir(work);
  }
}

/** Runs the CLI to completion. @throws when it exits non-zero. */
function run(args: readonly string[], env: NodeJS.ProcessEnv): { stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`codescout ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { stdout: r.stdout, stderr: r.stderr };
}

/**
 * Wall time (ms) of `n` runs, each a new process, and for served runs the socket round trip the CLI reports; checks
 * with --verbose that the expected path answered every one.
 */
function wallTimes(args: readonly string[], n: number, env: NodeJS.ProcessEnv, expected: 'server' | 'in-process'): { wall: number[]; roundTrip: number[] } {
  const wall: number[] = [];
  const roundTrip: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const { stderr } = run([...args, '--verbose'], env);
    wall.push(performance.now() - started);
    const answeredBy = stderr.split('\n')[0] ?? '';
    if (!answeredBy.startsWith(expected === 'server' ? 'codescout: answered by the query server' : 'codescout: answered in-process')) {
      throw new Error(`codescout ${args.join(' ')}: expected the ${expected} path, got: ${answeredBy}`);
    }
    const trip = / in (\d+) ms$/.exec(answeredBy);
    if (trip) roundTrip.push(Number(trip[1]));
  }
  return { wall, roundTrip };
}

/** Wall time (ms) of `n` runs of a command that does no work: the floor every CLI run pays (Node start, module load). */
function floorTimes(args: readonly string[], n: number): number[] {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const r = spawnSync(process.execPath, args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
    ms.push(performance.now() - started);
  }
  return ms;
}

/** Starts `codescout serve` and resolves once it prints its ready line. */
function startServe(root: string, cacheDir: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', root, '--cache-dir', cacheDir], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (/^serving .* Ctrl-C to stop\.$/m.test(out)) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`codescout serve exited ${code}: ${err}`)));
  });
}

/** Characters of the MCP text content against tokenBudget, per tool and budget, over a stdio child. */
async function mcpTextRows(root: string, cacheDir: string, env: NodeJS.ProcessEnv): Promise<Row[]> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', root, '--cache-dir', cacheDir, '--no-watch'], env: env as Record<string, string>, stderr: 'ignore' });
  const client = new Client({ name: 'bench-warm', version: '1.0.0' });
  await client.connect(transport);
  const rows: Row[] = [];
  try {
    const calls = [
      ['retrieve_context', 'retrieve_context', { text: TASK }],
      ['retrieve_context (judge agent)', 'retrieve_context', { text: TASK, judge: 'agent' }],
      ['search_code', 'search_code', { query: SEARCH, k: 10 }],
    ] as const;
    for (const [label, tool, args] of calls) {
      for (const budget of BUDGETS) {
        const reply = (await client.callTool({ name: tool, arguments: { ...args, tokenBudget: budget } }, undefined, { timeout: 300_000 })) as CallToolResult;
        const text = reply.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
        const s = reply.structuredContent as { tokensUsed: number; results?: File[]; related?: File[]; candidates?: File[]; hits?: Array<{ path: string; startLine: number; text?: string }> };
        const files = [...(s.results ?? []), ...(s.related ?? []), ...(s.candidates ?? [])];
        const code = files.flatMap((f) => f.chunks).concat(s.hits ?? []).reduce((n, c) => n + (c.text?.length ?? 0), 0);
        const named = (head: string): boolean => text.startsWith(head.slice(1)) || text.includes(head);
        const entries = s.hits
          ? `${s.hits.filter((h) => named(`\n## ${h.path}:${h.startLine}-`)).length} of ${s.hits.length} hits`
          : `${files.filter((f) => named(`\n## ${f.path}  (`)).length} of ${files.length} files`;
        rows.push([
          `mcp ${label} at ${budget} tokens`,
          `${text.length} chars`,
          `~${Math.ceil(text.length / 4)} of ${budget} tokens (chars / 4); ${entries} in the text; structured: code ${code} chars, tokensUsed ${s.tokensUsed}, JSON ${JSON.stringify(s).length} chars`,
        ]);
      }
    }
  } finally {
    await client.close();
  }
  return rows;
}

type File = { path: string; chunks: Array<{ text?: string }> };

await runScript(USAGE, main);
