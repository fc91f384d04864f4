import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { CodeIndexError } from '../errors.js';
import type { ProgressListener } from '../indexer/update-report.js';

/** What a tool handler gets from the SDK besides its arguments. */
export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Writes one diagnostic line (to stderr in the CLI: stdout carries only the protocol). */
export type Log = (message: string) => void;

/** A successful tool result: the value as structured content and, for clients that read only text, as JSON. */
export function toolResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

/** A tool result whose text block is written for people and agents to read, instead of the JSON. */
export class ToolReply {
  constructor(
    readonly value: Record<string, unknown>,
    readonly text: string,
  ) {}
}

/**
 * Runs a tool body and turns any failure into an error result (`isError: true`) with a message that says what
 * went wrong and what to do, so one bad call never takes the server down. Unexpected errors are also logged.
 */
export async function runTool(log: Log, name: string, body: () => Promise<Record<string, unknown> | ToolReply>): Promise<CallToolResult> {
  try {
    const out = await body();
    return out instanceof ToolReply ? { content: [{ type: 'text', text: out.text }], structuredContent: out.value } : toolResult(out);
  } catch (error) {
    const message =
      error instanceof CodeIndexError
        ? error.message
        : `unexpected error in ${name}: ${(error as Error)?.message ?? String(error)}. The server is still running; see its stderr for the stack.`;
    if (!(error instanceof CodeIndexError)) log(`codescout: ${name}: ${(error as Error)?.stack ?? String(error)}`);
    return { content: [{ type: 'text', text: message }], isError: true };
  }
}

/**
 * A progress listener for a long tool call: MCP progress notifications when the client sent a progress token
 * (progress = files done, which only grows), else one logging notification per phase (honouring the level the
 * client set with logging/setLevel).
 */
export function progressFor(server: McpServer, extra: ToolExtra): ProgressListener {
  const token = extra._meta?.progressToken;
  let last = -1;
  let phase = '';
  // A notification that cannot be delivered (client gone, transport closed) must not fail the work it reports on.
  const quietly = (sent: Promise<void>): void => void sent.catch(() => undefined);
  return (p) => {
    const message = p.message ?? (p.filesTotal > 0 ? `${p.phase}: ${p.filesDone}/${p.filesTotal} files` : p.phase);
    if (token !== undefined) {
      if (p.filesDone <= last) return;
      last = p.filesDone;
      const total = p.filesTotal > 0 ? { total: p.filesTotal } : {};
      quietly(extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: p.filesDone, ...total, message } }));
    } else if (p.phase !== phase) {
      phase = p.phase;
      quietly(server.sendLoggingMessage({ level: 'info', logger: 'codescout', data: message }, extra.sessionId));
    }
  };
}
