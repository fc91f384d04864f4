import { readFileSync } from 'node:fs';
import path from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { openIndex } from '../code-index.js';
import { PACKAGE_ROOT } from '../config.js';
import { IndexSession } from '../mcp/index-session.js';
import { createMcpServer } from '../mcp/server.js';
import { indexOptions, type IndexCliOptions } from './index-commands.js';
import { eprintln, type CliIO } from './output.js';

/**
 * `codescout mcp [root]`: serves the index over MCP on stdin/stdout until the client closes stdin or the process
 * gets SIGINT/SIGTERM; then applies pending watcher changes, saves and exits 0. Diagnostics go to stderr only.
 */
export async function runMcp(io: CliIO, root: string | undefined, o: IndexCliOptions & { watch?: boolean }): Promise<number> {
  // stdout carries JSON-RPC and nothing else: a dependency that logs with console.log must not corrupt it.
  console.log = console.info = console.debug = console.warn = (...args: unknown[]) => console.error(...args);
  const log = (message: string): void => eprintln(io, message);
  const index = await openIndex(indexOptions(root, o));
  for (const note of index.notes) log(`codescout: ${note}`);
  const session = new IndexSession(index, { watch: o.watch !== false, log });
  const server = createMcpServer({ session, log, version: packageVersion() });
  const transport = new StdioServerTransport();
  const stopped = new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.stdin.off('end', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    process.stdin.on('end', stop);
    transport.onclose = stop;
  });
  await server.connect(transport);
  log(`codescout: MCP server for ${index.config.root} on stdio (${o.watch === false ? 'no watcher' : 'watching for changes'})`);
  await stopped;
  await server.close();
  await session.close();
  log('codescout: MCP server stopped; index saved.');
  return 0;
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}
