import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import type { EvaluateFn, Evaluator } from '../../retrieve/evaluator.js';
import { JUDGE_BANDS } from '../../retrieve/candidate-view.js';
import { retrieve } from '../../retrieve/retrieve.js';
import { startRetrieval } from '../../retrieve/retrieval-session.js';
import { MAX_MIN_HIGH, MAX_TASK_CHARS } from '../../retrieve/task.js';
import { RetrieveContextOutput } from '../../schemas.js';
import type { IndexSession } from '../index-session.js';
import type { JudgeSessions } from '../judge-sessions.js';
import { contextPack, judgeStep } from '../context-pack.js';
import { checkGlobs } from '../root-paths.js';
import { progressFor, runTool, type Log } from '../tool-result.js';

/** Text (and code in the structured content) returned by default, in approximate tokens (chars / 4). */
export const DEFAULT_TOKEN_BUDGET = 4000;
/** Most code one call may ask for, in approximate tokens. */
export const MAX_TOKEN_BUDGET = 100_000;

const globs = (what: string) => z.array(z.string().min(1)).max(50).optional().describe(what);

/** The token budget argument of `retrieve_context` and `judge_context`. */
export const tokenBudgetArg = z
  .number()
  .int()
  .min(0)
  .max(MAX_TOKEN_BUDGET)
  .optional()
  .describe(
    `approximate tokens (characters / 4) the text may take, headings and code together: the best file and its code ` +
    `first, then other files, their code and reasons; one line says what was left out (default ${DEFAULT_TOKEN_BUDGET}; ` +
    `0 = no code, the text names the best file only). The structured content carries code within the same budget`,
  );

/** The trace argument of `retrieve_context` and `judge_context`. */
export const traceArg = z.boolean().optional().describe('also show the cycle trace (queries, learned terms, gaps) in the text (default false; the structured content always has it)');

/** Arguments of `retrieve_context`: the retrieval Task, who judges, and a token budget for code. */
export const RetrieveContextInput = {
  text: z.string().min(1).max(MAX_TASK_CHARS).describe('the task in natural language, e.g. "add rate limiting to the API endpoints"'),
  keywords: z.array(z.string().min(1)).max(50).optional().describe('identifiers or words you already know belong to the task'),
  patterns: globs('search only within these globs (relative to the root, e.g. "src/net/**")'),
  excludes: globs('leave out paths matching these globs'),
  maxCycles: z.number().int().min(1).max(5).optional().describe('most search-evaluate-refine cycles (default 3)'),
  minHigh: z
    .number().int().min(1).max(MAX_MIN_HIGH).optional()
    .describe('stop early once this many files score >= 0.7 and no definition they use is missing (default 3); when you judge, raise it (e.g. 5) to let later cycles keep looking'),
  judge: z
    .enum(['builtin', 'agent'])
    .optional()
    .describe('who judges each cycle: builtin (default; one call returns the answer) or agent (you: the call returns candidates to score with judge_context)'),
  tokenBudget: tokenBudgetArg,
  trace: traceArg,
};

/** Registers `retrieve_context`: the iterative retrieval loop, judged by the built-in judge or by the agent. */
export function registerRetrieveContext(server: McpServer, o: { session: IndexSession; log: Log; sessions: JudgeSessions; evaluate?: EvaluateFn | Evaluator }): void {
  server.registerTool(
    'retrieve_context',
    {
      title: 'Retrieve context for a task',
      description:
        'Finds the files and code a task needs: searches the local semantic index, judges every file (relevance 0..1, ' +
        'reason, missing context), learns the code base\'s words and searches again, up to maxCycles. With the default ' +
        'judge it returns status "done": high-relevance files (results, >= 0.7), related files (0.4-0.7), the cycle ' +
        'trace, and the code of the best chunks; the text is Markdown (files, line ranges, fenced code; the trace only ' +
        'with trace: true) that fits tokenBudget whole. With judge "agent" you are the judge: it returns ' +
        'status "judge", a sessionId and the first cycle\'s candidate files with their code and a built-in hint; score ' +
        `them with judge_context. ${JUDGE_BANDS}`,
      inputSchema: RetrieveContextInput,
      outputSchema: RetrieveContextOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      runTool(o.log, 'retrieve_context', async () => {
        await o.session.ready(progressFor(server, extra));
        const root = o.session.index.config.root;
        const task = {
          text: args.text,
          keywords: args.keywords,
          patterns: checkGlobs(root, args.patterns, 'patterns'),
          excludes: checkGlobs(root, args.excludes, 'excludes'),
          maxCycles: args.maxCycles,
          minHigh: args.minHigh,
        };
        const tokenBudget = args.tokenBudget ?? DEFAULT_TOKEN_BUDGET;
        if (args.judge === 'agent') {
          const session = await startRetrieval(o.session.index, task);
          const sessionId = o.sessions.add(session, tokenBudget);
          return judgeStep({ session, sessionId, tokenBudget });
        }
        const result = await retrieve(o.session.index, task, { evaluate: o.evaluate });
        return contextPack({ root, secrets: o.session.index.discovery.secrets, result, tokenBudget, trace: args.trace });
      }),
  );
}
