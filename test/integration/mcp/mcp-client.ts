import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { SCHEMAS, type SchemaName } from '../../../src/index.js';
import { CLI, cliEnv, runCli } from '../../helpers/cli.js';
import { createTempTree, type TempTree } from '../../helpers/fixture-tree.js';

/** A connected MCP client talking to `codescout mcp` in a child process. */
export interface McpChild {
  readonly client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Calls a tool; the SDK client checks structured content against the tool's output schema. */
  call(name: string, args?: Record<string, unknown>, onProgress?: (p: { progress: number; total?: number }) => void): Promise<CallToolResult>;
  /** Closes stdin and waits for the server to exit. */
  close(): Promise<void>;
}

/** Starts `node bin/codescout.js mcp <root> --cache-dir <dir> ...extra` and connects a client. */
export async function startMcp(tree: TempTree, extra: readonly string[] = []): Promise<McpChild> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', tree.root, '--cache-dir', tree.cacheDir, ...extra],
    env: cliEnv() as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'codescout-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    call: async (name, args = {}, onProgress) =>
      (await client.callTool({ name, arguments: args }, undefined, onProgress ? { onprogress: onProgress, timeout: 120_000 } : { timeout: 120_000 })) as CallToolResult,
    close: () => client.close(),
  };
}

/** A copy of a fixture folder, indexed by the CLI, served by an MCP child without a watcher; dispose() ends both. */
export async function servedFixture(fixture: string): Promise<{ tree: TempTree; mcp: McpChild; dispose: () => Promise<void> }> {
  const tree = await createTempTree({}, fixture);
  const indexed = await runCli(['index', tree.root, '--cache-dir', tree.cacheDir, '--json']);
  if (indexed.code !== 0) throw new Error(`codescout index failed (${indexed.code}): ${indexed.stderr}`);
  const mcp = await startMcp(tree, ['--no-watch']);
  return { tree, mcp, dispose: async () => (await mcp.close(), await tree.dispose()) };
}

const ajv = new Ajv({ strict: true, allErrors: true });

/** Throws with ajv's errors unless `value` matches the published JSON Schema `name`. */
export function assertMatchesSchema(name: SchemaName, value: unknown): void {
  const validate = ajv.getSchema(name) ?? (ajv.addSchema(SCHEMAS[name], name), ajv.getSchema(name)!);
  if (!validate(value)) throw new Error(`${name} does not match its schema: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value).slice(0, 2000)}`);
}

/** The text of an error result. */
export function errorText(result: CallToolResult): string {
  const block = result.content[0];
  return block && block.type === 'text' ? block.text : '';
}

/** Polls `probe` until it returns true or the deadline passes; each poll waits for the previous one. */
export async function until(probe: () => Promise<boolean>, o: { timeoutMs: number; what: string }): Promise<void> {
  const deadline = Date.now() + o.timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${o.timeoutMs} ms waiting for ${o.what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The structured content of a result, typed as the test reads it (the schema check is separate). */
export function structured<T>(result: CallToolResult): T {
  return result.structuredContent as unknown as T;
}
