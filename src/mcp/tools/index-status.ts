import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { IndexStatusOutput } from '../../schemas.js';
import type { IndexSession } from '../index-session.js';
import { runTool, type Log } from '../tool-result.js';

/** Registers `index_status`: what the index holds and whether the watcher keeps it live. Never builds. */
export function registerIndexStatus(server: McpServer, o: { session: IndexSession; log: Log }): void {
  server.registerTool(
    'index_status',
    {
      title: 'Index status',
      description:
        'Model, files, chunks, size on disk and last update of the index, and whether a file watcher keeps it live. ' +
        'Instant; an index with 0 files is built by the first search or retrieve_context call.',
      inputSchema: {},
      outputSchema: IndexStatusOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () => runTool(o.log, 'index_status', async () => ({ ...(await o.session.index.stats()), watching: o.session.isWatching })),
  );
}
