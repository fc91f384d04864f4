import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { SearchOutput } from '../../schemas.js';
import type { IndexSession } from '../index-session.js';
import { checkGlobs } from '../root-paths.js';
import { progressFor, runTool, type Log } from '../tool-result.js';

/** Most hits one call may ask for. */
export const MAX_HITS = 100;

/** Arguments of `search_code`. */
export const SearchCodeInput = {
  query: z.string().min(1).max(2000).describe('what to look for, in words or identifiers'),
  k: z.number().int().min(1).max(MAX_HITS).optional().describe('number of hits (default 10)'),
  include: z.array(z.string().min(1)).max(50).optional().describe('only paths matching these globs (relative to the root)'),
  exclude: z.array(z.string().min(1)).max(50).optional().describe('leave out paths matching these globs'),
  mode: z.enum(['vector', 'lexical', 'hybrid']).optional().describe('vector, lexical (BM25) or hybrid (default)'),
};

/** Registers `search_code`: one-shot search returning chunk locations, best first. */
export function registerSearchCode(server: McpServer, o: { session: IndexSession; log: Log }): void {
  server.registerTool(
    'search_code',
    {
      title: 'Search code',
      description:
        'One-shot search of the local semantic index: returns chunks (path, line range, symbol, kind, score), best ' +
        'first. Cheaper than retrieve_context; use it to look up a known name or to probe before a task.',
      inputSchema: SearchCodeInput,
      outputSchema: SearchOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      runTool(o.log, 'search_code', async () => {
        await o.session.ready(progressFor(server, extra));
        const root = o.session.index.config.root;
        const hits = await o.session.index.search(args.query, {
          k: args.k ?? 10,
          mode: args.mode ?? 'hybrid',
          include: checkGlobs(root, args.include, 'include'),
          exclude: checkGlobs(root, args.exclude, 'exclude'),
        });
        return { hits: hits.map(({ path, startLine, endLine, symbol, kind, score }) => ({ path, startLine, endLine, symbol, kind, score })) };
      }),
  );
}
