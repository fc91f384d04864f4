import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { EvaluateFn, Evaluator } from '../retrieve/evaluator.js';
import type { IndexSession } from './index-session.js';
import type { Log } from './tool-result.js';
import { JudgeSessions, type JudgeSessionsOptions } from './judge-sessions.js';
import { registerIndexStatus } from './tools/index-status.js';
import { registerJudgeContext } from './tools/judge-context.js';
import { registerReindex } from './tools/reindex.js';
import { registerRetrieveContext } from './tools/retrieve-context.js';
import { registerSearchCode } from './tools/search-code.js';

/** The tools the server offers, in the order they are listed. */
export const TOOL_NAMES = Object.freeze(['retrieve_context', 'judge_context', 'search_code', 'index_status', 'reindex'] as const);

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  readonly session: IndexSession;
  /** Diagnostics; never stdout when serving over stdio. */
  readonly log: Log;
  /** Server version reported to clients. */
  readonly version: string;
  /** Replaces the default evaluator of `retrieve_context` (e.g. an LLM judge). */
  readonly evaluate?: EvaluateFn | Evaluator;
  /** Bounds of the agent-judged sessions (time to live, count). */
  readonly judgeSessions?: JudgeSessionsOptions;
}

const INSTRUCTIONS =
  'codescout searches a local semantic index of one code base. For a task, call retrieve_context with the task in ' +
  'words (plus keywords you know); it returns high-relevance files with their code, as text that fits tokenBudget. To judge ' +
  'the candidates yourself (better answers), call it with judge "agent" and answer each cycle with judge_context. Use ' +
  'search_code to look up a name. Paths are relative to the indexed root.';

/**
 * Builds the MCP server of one index: tools that call the library, nothing more. Connect it to a transport
 * (e.g. `StdioServerTransport`); close the session when the transport closes.
 * @example
 * const session = new IndexSession(await openIndex({ root: '.' }), { watch: true, log: (m) => process.stderr.write(m + '\n') });
 * await createMcpServer({ session, log, version: '0.1.0' }).connect(new StdioServerTransport());
 */
export function createMcpServer(o: McpServerOptions): McpServer {
  const server = new McpServer({ name: 'codescout', version: o.version }, { capabilities: { logging: {} }, instructions: INSTRUCTIONS });
  const sessions = new JudgeSessions(o.judgeSessions);
  registerRetrieveContext(server, { ...o, sessions });
  registerJudgeContext(server, { ...o, sessions });
  registerSearchCode(server, o);
  registerIndexStatus(server, o);
  registerReindex(server, o);
  return server;
}
