import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { openIndex } from '../code-index.js';
import { IndexSession } from '../mcp/index-session.js';
import { LineLimitedInput, MAX_MESSAGE_BYTES } from '../mcp/line-limited-input.js';
import { createMcpServer } from '../mcp/server.js';
import { indexOptions, type IndexCliOptions } from './index-commands.js';
import { serveQueries } from './served-commands.js';
import { storedFiltersNote } from './stored-filters.js';
import { packageVersion } from './package-version.js';
import { eprintln, type CliIO } from './output.js';

/** JSON-RPC "Invalid Request": the answer to a message over the size limit. */
const INVALID_REQUEST = ErrorCode.InvalidRequest;

/**
 * `codescout mcp [root]`: serves the index over MCP on stdin/stdout until the client closes stdin or the process
 * gets SIGINT/SIGTERM; then applies pending watcher changes, saves and exits 0. Diagnostics go to stderr only.
 */
export async function runMcp(io: CliIO, root: string | undefined, o: IndexCliOptions & { watch?: boolean }): Promise<number> {
  // stdout carries JSON-RPC and nothing else: a dependency that logs with console.log must not corrupt it.
  console.log = console.info = console.debug = console.warn = (...args: unknown[]) => console.error(...args);
  const log = (message: string): void => eprintln(io, message);
  // With a shared store and the watcher on, the working tree's edits go to a local layer over the shared index.
  const index = await openIndex({ ...indexOptions(root, o), localEdits: o.watch !== false });
  const filtersNote = storedFiltersNote(index.storedFilters);
  if (filtersNote !== null) log(filtersNote);
  for (const note of index.notes) log(`codescout: ${note}`);
  const session = new IndexSession(index, { watch: o.watch !== false, log });
  const server = createMcpServer({ session, log, version: packageVersion() });
  // One message over the limit is refused with a JSON-RPC error; the SDK's transport alone would close the server.
  const input = new LineLimitedInput({
    maxLineBytes: MAX_MESSAGE_BYTES,
    onOversized: ({ bytes, id }) => {
      log(`codescout: refused an MCP message of ${bytes} bytes (the limit is ${MAX_MESSAGE_BYTES}); the server keeps running`);
      if (id === null) return; // a notification, or an id we cannot find: nobody waits for an answer we could address
      const message = `The request is ${bytes} bytes; the limit is ${MAX_MESSAGE_BYTES} bytes. Send less (fewer paths, shorter text).`;
      transport.send({ jsonrpc: '2.0', id, error: { code: INVALID_REQUEST, message } }).catch((error: unknown) => log(`codescout: could not answer the refused request: ${(error as Error).message}`));
    },
  });
  // Lines reach the transport whole and within the limit; its own cap only has to stay above ours.
  const transport = new StdioServerTransport(input, process.stdout, { maxBufferSize: 2 * MAX_MESSAGE_BYTES });
  process.stdin.pipe(input);
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
  const queries = await serveQueries(index, { log, required: false });
  await stopped;
  await queries?.close();
  await server.close();
  await session.close();
  log('codescout: MCP server stopped; index saved.');
  return 0;
}
