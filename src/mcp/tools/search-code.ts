import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { SearchOutput } from '../../schemas.js';
import type { IndexSession } from '../index-session.js';
import { checkGlobs } from '../root-paths.js';
import { renderSearchHits } from '../search-markdown.js';
import { fitHitsToBudget } from '../token-budget.js';
import { progressFor, runTool, ToolReply, type Log } from '../tool-result.js';
import { MAX_TOKEN_BUDGET } from './retrieve-context.js';

/** Most hits one call may ask for. */
export const MAX_HITS = 100;

/** Text `search_code` returns by default, in approximate tokens (chars / 4): a look-up, smaller than a task's context. */
export const DEFAULT_SEARCH_TOKEN_BUDGET = 1500;

/** Arguments of `search_code`. */
export const SearchCodeInput = {
  query: z.string().min(1).max(2000).describe('what to look for, in words or identifiers'),
  k: z.number().int().min(1).max(MAX_HITS).optional().describe('number of hits (default 10)'),
  include: z.array(z.string().min(1)).max(50).optional().describe('only paths matching these globs (relative to the root)'),
  exclude: z.array(z.string().min(1)).max(50).optional().describe('leave out paths matching these globs'),
  mode: z.enum(['vector', 'lexical', 'hybrid']).optional().describe('vector, lexical (BM25) or hybrid (default)'),
  tokenBudget: z
    .number()
    .int()
    .min(0)
    .max(MAX_TOKEN_BUDGET)
    .optional()
    .describe(
      `approximate tokens (characters / 4) the text may take, headings and code together, best hits first; one line ` +
      `says what was left out (default ${DEFAULT_SEARCH_TOKEN_BUDGET}; 0 = no code, the text names the best hit only)`,
    ),
};

/** Registers `search_code`: one-shot search returning chunk locations and their code within a budget, best first. */
export function registerSearchCode(server: McpServer, o: { session: IndexSession; log: Log }): void {
  server.registerTool(
    'search_code',
    {
      title: 'Search code',
      description:
        'One-shot search of the local semantic index: returns chunks (path, line range, symbol, kind, similarity to ' +
        'the query) best first, with the code of the best ones; the text is Markdown that fits tokenBudget whole. Cheaper than ' +
        'retrieve_context; use it to look up a known name or to probe before a task.',
      inputSchema: SearchCodeInput,
      outputSchema: SearchOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      runTool(o.log, 'search_code', async () => {
        await o.session.ready(progressFor(server, extra));
        const root = o.session.index.config.root;
        const found = await o.session.index.search(args.query, {
          k: args.k ?? 10,
          mode: args.mode ?? 'hybrid',
          include: checkGlobs(root, args.include, 'include'),
          exclude: checkGlobs(root, args.exclude, 'exclude'),
        });
        const tokenBudget = args.tokenBudget ?? DEFAULT_SEARCH_TOKEN_BUDGET;
        const fitted = fitHitsToBudget(found, tokenBudget);
        const hits = fitted.hits.map(({ hit: { path, startLine, endLine, symbol, kind, score, similarity }, text, textTruncated }) => ({
          path, startLine, endLine, symbol, kind, score,
          ...(similarity === undefined ? {} : { similarity }),
          ...(text === undefined ? {} : { text }),
          ...(textTruncated ? { textTruncated } : {}),
        }));
        const chunksWaiting = await o.session.index.chunksWaiting();
        const value = { hits, tokenBudget, tokensUsed: fitted.tokensUsed, truncated: fitted.truncated, ...(chunksWaiting > 0 ? { chunksWaiting } : {}) };
        const note = chunksWaiting > 0 ? `Note: ${chunksWaiting} chunks are not embedded yet (the index is being built); they are found by their words only.` : undefined;
        return new ToolReply(value, renderSearchHits(fitted.hits, { tokenBudget, truncated: fitted.truncated, ...(note === undefined ? {} : { note }) }));
      }),
  );
}
