import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { JUDGE_BANDS } from '../../retrieve/candidate-view.js';
import { MAX_JUDGEMENTS } from '../../retrieve/judgements.js';
import { JudgementShape, RetrieveContextOutput } from '../../schemas.js';
import { contextPack, judgeStep } from '../context-pack.js';
import type { IndexSession } from '../index-session.js';
import type { JudgeSessions } from '../judge-sessions.js';
import { runTool, type Log, type ToolReply } from '../tool-result.js';
import { tokenBudgetArg, traceArg } from './retrieve-context.js';

/** Arguments of `judge_context`: the session and your evaluations of its current candidates. */
export const JudgeContextInput = {
  sessionId: z.string().min(1).max(100).describe('the sessionId retrieve_context (judge: "agent") returned'),
  evaluations: z.array(JudgementShape).max(MAX_JUDGEMENTS).describe('one per candidate you judge; candidates you leave out keep the built-in hint'),
  tokenBudget: tokenBudgetArg,
  trace: traceArg,
};

/** Registers `judge_context`: EVALUATE by the agent, then REFINE and the next DISPATCH of an agent-judged session. */
export function registerJudgeContext(server: McpServer, o: { session: IndexSession; log: Log; sessions: JudgeSessions }): void {
  server.registerTool(
    'judge_context',
    {
      title: 'Judge the candidates of a retrieval cycle',
      description:
        'Takes your evaluations of the current cycle\'s candidates (from retrieve_context with judge "agent", or the ' +
        'previous judge_context), learns from them (terms of the files you score high, what you say is missing, files ' +
        'you exclude) and searches again. Returns status "judge" with the next cycle\'s candidates, or, once the loop ' +
        `stops, status "done" with the answer: results (>= 0.7) first, then related, with their code (the text ` +
        `is Markdown that fits tokenBudget whole; the cycle trace only with trace: true). ${JUDGE_BANDS}`,
      inputSchema: JudgeContextInput,
      outputSchema: RetrieveContextOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      runTool(o.log, 'judge_context', () =>
        o.sessions.use<ToolReply>(args.sessionId, async (session, startBudget) => {
          const tokenBudget = args.tokenBudget ?? startBudget;
          const step = await session.judge(args.evaluations);
          if (!step.done) return { value: judgeStep({ session, sessionId: args.sessionId, tokenBudget }), done: false };
          const root = o.session.index.config.root;
          return { value: await contextPack({ root, secrets: o.session.index.discovery.secrets, result: await session.result(), tokenBudget, trace: args.trace }), done: true };
        }),
      ),
  );
}
