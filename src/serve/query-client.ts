import { exchangeLine, type ExchangeTimeouts } from './line-client.js';
import { parseReply, SERVE_PROTOCOL, type ServeReply, type ServeRequest } from './protocol.js';
import { socketRefusal } from './socket-file.js';
import type { SocketLocation } from './socket-path.js';

/** How long the CLI waits for a query server: a short connect (none listening costs next to nothing), a long reply. */
export const CLIENT_TIMEOUTS: ExchangeTimeouts = Object.freeze({ connectMs: 150, replyMs: 120_000 });

/** What asking a server gave: its reply, or why there is none (`isStale`: a socket file nobody listens on). */
export type AskResult = { readonly reply: ServeReply } | { readonly unavailable: string; readonly isStale: boolean };

/**
 * Sends one request to the query server of an index and reads its reply. Never throws: no server, a socket that is
 * not this user's, a transport error or a reply that is not of this protocol all come back as `unavailable`.
 */
export async function askQueryServer(location: SocketLocation, request: ServeRequest, timeouts: ExchangeTimeouts = CLIENT_TIMEOUTS): Promise<AskResult> {
  const refusal = socketRefusal(location.socketPath, location.privateDir);
  if (refusal !== null) return { unavailable: refusal, isStale: false };
  let line: string;
  try {
    line = await exchangeLine(location.socketPath, JSON.stringify(request), timeouts);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { unavailable: `${location.socketPath}: ${(error as Error).message}`, isStale: code === 'ECONNREFUSED' || code === 'ENOENT' };
  }
  const reply = parseReply(line);
  if (reply === null) return { unavailable: `the server at ${location.socketPath} replied with something that is not a reply of protocol ${SERVE_PROTOCOL}`, isStale: false };
  return { reply };
}
