/** The crash test's `mcp-reindex` trial: `reindex` over MCP, with the server SIGKILLed at a random moment. */
import { existsSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** Options of {@link runMcpReindexTrial}. */
export interface McpReindexTrialOptions {
  /** Path of bin/codescout.js. */
  readonly cli: string;
  readonly root: string;
  readonly cacheDir: string;
  readonly env: NodeJS.ProcessEnv;
  /** Root-relative files or folders to re-index; undefined: everything. */
  readonly paths?: readonly string[];
  /** Time from sending the `reindex` call to the SIGKILL, in ms. */
  readonly delayMs: number;
  /** The index's write lock file: present at the kill means the server died mid-write. */
  readonly lockPath: string;
}

/** What happened to the server. */
export interface McpReindexOutcome {
  /** The `reindex` call was still running when the SIGKILL came. */
  readonly killed: boolean;
  /** Killed with the write lock held, or after the pass had reported indexed files. */
  readonly wrote: boolean;
  /** What went wrong apart from the kill (an error result, a server that stopped by itself); undefined if nothing. */
  readonly problem?: string;
}

/**
 * Starts `codescout mcp <root> --cache-dir <dir> --no-watch`, connects an MCP client over stdio, calls `reindex`
 * and SIGKILLs the server `delayMs` after the call was sent, whether or not it has answered (an idle server is
 * killed too, so a save still running after the answer is covered). Never throws for a failed trial.
 */
export async function runMcpReindexTrial(o: McpReindexTrialOptions): Promise<McpReindexOutcome> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [o.cli, 'mcp', o.root, '--cache-dir', o.cacheDir, '--no-watch'],
    env: o.env as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'codescout-crash-test', version: '1.0.0' });
  const closed = new Promise<void>((resolve) => (client.onclose = resolve));
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close();
    return { killed: false, wrote: false, problem: `could not connect: ${(error as Error).message}; stderr: ${stderr.slice(-300)}` };
  }
  const pid = transport.pid;
  let state: 'running' | 'answered' | 'failed' = 'running';
  let filesDone = 0;
  let killing = false;
  let problem: string | undefined;
  const args = o.paths === undefined ? {} : { paths: [...o.paths] };
  const call = client
    .callTool({ name: 'reindex', arguments: args }, undefined, { timeout: 120_000, onprogress: (p) => (filesDone = Math.max(filesDone, p.progress)) })
    .then(
      (result) => {
        state = 'answered';
        if ((result as CallToolResult).isError) problem = `reindex answered with an error: ${JSON.stringify((result as CallToolResult).content).slice(0, 300)}`;
      },
      (error: unknown) => {
        state = 'failed';
        if (!killing) problem = `reindex failed: ${(error as Error).message}`;
      },
    );
  let stoppedByItself = false;
  await Promise.race([
    new Promise((resolve) => setTimeout(resolve, o.delayMs)),
    closed.then(() => (stoppedByItself = !killing)),
  ]);
  const killed = state === 'running';
  killing = true;
  if (stoppedByItself) problem ??= `the server stopped by itself; stderr: ${stderr.slice(-300)}`;
  else if (pid !== null) process.kill(pid, 'SIGKILL');
  await closed;
  await call;
  await client.close();
  // A SIGKILLed writer leaves its lock file behind, so its presence now tells whether the kill came mid-write.
  const wrote = killed && (existsSync(o.lockPath) || filesDone > 0);
  return problem === undefined ? { killed, wrote } : { killed, wrote, problem };
}
