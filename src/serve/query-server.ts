import { lstatSync } from 'node:fs';
import { listenForLines, type LineServer } from './line-server.js';
import { parseRequest, SERVE_PROTOCOL, type OptionValue, type ServedCommand, type ServedIndex, type ServeReply } from './protocol.js';
import { askQueryServer } from './query-client.js';
import { ServerBusyError } from './server-busy-error.js';
import { makePrivateDir, removeStaleSocket } from './socket-file.js';
import type { SocketLocation } from './socket-path.js';

/** Longest request line a server reads, in bytes (a query text is at most 10,000 characters). */
export const MAX_REQUEST_BYTES = 1024 * 1024;

/** What running one command gave: its output and exit code, or a user error with the output before it. */
export type CommandOutcome =
  | { readonly stdout: string; readonly stderr: string; readonly exitCode: number }
  | { readonly stdout: string; readonly stderr: string; readonly error: { readonly message: string; readonly exitCode: number } };

/** Options of {@link startQueryServer}. */
export interface QueryServerOptions {
  readonly location: SocketLocation;
  /** This package's version: requests from another version are declined. */
  readonly version: string;
  /** The index served: requests for another root, index folder or model are declined. */
  readonly index: ServedIndex;
  /** Runs one command on the served index. Rejects only for a failure of the server's own (the CLI then runs in-process). */
  readonly run: (command: ServedCommand, text: string, options: Readonly<Record<string, OptionValue>>) => Promise<CommandOutcome>;
}

/**
 * Starts answering CLI `search` and `query` for one index at its socket. A socket left by a killed server is
 * replaced; a live one is not.
 * @throws ServerBusyError when another process already serves this index, ConfigError when the socket path is
 * taken by something else, and listen errors (`EACCES` on a read-only index folder).
 */
export async function startQueryServer(o: QueryServerOptions): Promise<LineServer> {
  const { socketPath, privateDir } = o.location;
  if (privateDir !== null) await makePrivateDir(privateDir);
  const listen = (): Promise<LineServer> => listenForLines({ socketPath, maxLineBytes: MAX_REQUEST_BYTES, answer: async (line) => JSON.stringify(await answer(o, line)) });
  try {
    return await listen();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
  }
  await refuseIfServed(o.location);
  await removeStaleSocket(socketPath);
  try {
    return await listen();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    await refuseIfServed(o.location); // another server started in between and won
    throw error;
  }
}

/** @throws ServerBusyError when a process answers at the socket. A refused connection means a stale socket. */
async function refuseIfServed(location: SocketLocation): Promise<void> {
  // Something else than this user's socket holds the path: no server of ours can be there, and removeStaleSocket
  // says what to do about it.
  const taken = process.platform === 'win32' ? undefined : lstatSync(location.socketPath, { throwIfNoEntry: false });
  if (taken !== undefined && (!taken.isSocket() || taken.uid !== process.getuid?.())) return;
  const asked = await askQueryServer(location, { protocol: SERVE_PROTOCOL, version: '', command: 'ping' }, { connectMs: 500, replyMs: 2000 });
  if ('unavailable' in asked && asked.isStale) return;
  const pid = 'reply' in asked ? asked.reply.pid : null;
  const who = pid === null ? 'another process' : `another codescout process (pid ${pid})`;
  throw new ServerBusyError(`${who} already answers queries for this index at ${location.socketPath}. Use that one, or stop it first.`, location.socketPath, pid);
}

async function answer(o: QueryServerOptions, line: string): Promise<ServeReply> {
  const head = { protocol: SERVE_PROTOCOL, version: o.version, pid: process.pid };
  const request = parseRequest(line);
  if (request === null) return { ...head, status: 'declined', reason: 'not a request of this protocol' };
  if (request.command === 'ping') return { ...head, status: 'pong' };
  if (request.protocol !== SERVE_PROTOCOL || request.version !== o.version) {
    return { ...head, status: 'declined', reason: `this server is codescout ${o.version} (protocol ${SERVE_PROTOCOL}); the client is ${request.version} (protocol ${request.protocol})` };
  }
  const mismatch = (['root', 'indexDir', 'model'] as const).find((k) => request.index[k] !== o.index[k]);
  if (mismatch !== undefined) {
    return { ...head, status: 'declined', reason: `this server serves ${mismatch} ${o.index[mismatch]}, not ${request.index[mismatch]}` };
  }
  try {
    const outcome = await o.run(request.command, request.text, request.options);
    if ('error' in outcome) return { ...head, status: 'rejected', stdout: outcome.stdout, stderr: outcome.stderr, ...outcome.error };
    return { ...head, status: 'answered', ...outcome };
  } catch (error) {
    // Not the user's doing: the CLI runs the command itself and reports whatever it meets there.
    return { ...head, status: 'declined', reason: `the server failed: ${(error as Error)?.message ?? String(error)}` };
  }
}
