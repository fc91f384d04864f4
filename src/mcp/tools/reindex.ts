import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { UpdateReportOutput } from '../../schemas.js';
import type { IndexSession } from '../index-session.js';
import { toRootRelative } from '../root-paths.js';
import { progressFor, runTool, type Log } from '../tool-result.js';

/** Arguments of `reindex`. */
export const ReindexInput = {
  paths: z
    .array(z.string().min(1))
    .max(1000)
    .optional()
    .describe('files or folders relative to the root to re-index (missing ones are removed); omit to re-index everything'),
};

/** Registers `reindex`: an incremental update of everything or of chosen paths. */
export function registerReindex(server: McpServer, o: { session: IndexSession; log: Log }): void {
  server.registerTool(
    'reindex',
    {
      title: 'Re-index',
      description:
        'Brings the index in line with the disk, incrementally (unchanged files are skipped, known text is never ' +
        're-embedded). With paths, only those files or folders; a path that no longer exists is removed. Rarely ' +
        'needed while the watcher runs.',
      inputSchema: ReindexInput,
      outputSchema: UpdateReportOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args, extra) =>
      runTool(o.log, 'reindex', async () => {
        const root = o.session.index.config.root;
        const paths = args.paths?.map((p) => toRootRelative(root, p, 'paths'));
        const report = await o.session.reindex(paths, progressFor(server, extra));
        await o.session.ready(); // starts the watcher if this was the first use
        return { ...report };
      }),
  );
}
