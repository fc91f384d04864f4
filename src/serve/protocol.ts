/**
 * The one-line JSON exchange between a CLI command and a running query server (`watch`, `mcp` or `serve`): the CLI
 * writes one request line, the server writes one reply line and closes. Any change of shape bumps
 * {@link SERVE_PROTOCOL}; a client and a server that differ in protocol or package version do not talk (the CLI then
 * answers in-process), so an old server never answers with another version's output.
 */
export const SERVE_PROTOCOL = 1;

/** Commands a server answers for the CLI. */
export type ServedCommand = 'search' | 'query';

/** Which index a request is for: a server declines a request for another one. */
export interface ServedIndex {
  readonly root: string;
  readonly indexDir: string;
  readonly model: string;
}

/** What the CLI sends. `ping` asks only who serves (a second server uses it to name the first). */
export type ServeRequest =
  | { readonly protocol: number; readonly version: string; readonly command: 'ping' }
  | {
      readonly protocol: number;
      readonly version: string;
      readonly command: ServedCommand;
      readonly index: ServedIndex;
      readonly text: string;
      /** The command's options as the CLI parsed them (strings, booleans, string lists): checked by the server as in-process. */
      readonly options: Readonly<Record<string, OptionValue>>;
    };

/** An option value as commander produces it. */
export type OptionValue = string | boolean | readonly string[];

/** Fields every reply carries, so the client can refuse a server of another version. */
interface ReplyHead {
  readonly protocol: number;
  readonly version: string;
  readonly pid: number;
}

/**
 * What the server sends: `pong` (to a ping); `answered` (the command ran: its output and exit code); `rejected`
 * (the command stopped with a user error: output so far, the error's message and exit code, as in-process);
 * `declined` (another version, another index, or a failure of the server's own: the CLI runs in-process).
 */
export type ServeReply = ReplyHead &
  (
    | { readonly status: 'pong' }
    | { readonly status: 'answered'; readonly stdout: string; readonly stderr: string; readonly exitCode: number }
    | { readonly status: 'rejected'; readonly stdout: string; readonly stderr: string; readonly message: string; readonly exitCode: number }
    | { readonly status: 'declined'; readonly reason: string }
  );

/** Pure: the request in a line, or null when the line is not a request of this shape (any protocol version). */
export function parseRequest(line: string): ServeRequest | null {
  const v = parseObject(line);
  if (v === null || typeof v.protocol !== 'number' || typeof v.version !== 'string') return null;
  if (v.command === 'ping') return { protocol: v.protocol, version: v.version, command: 'ping' };
  if (v.command !== 'search' && v.command !== 'query') return null;
  const index = v.index as Record<string, unknown> | undefined;
  if (typeof index !== 'object' || index === null || !['root', 'indexDir', 'model'].every((k) => typeof index[k] === 'string')) return null;
  if (typeof v.text !== 'string' || !isOptions(v.options)) return null;
  return {
    protocol: v.protocol,
    version: v.version,
    command: v.command,
    index: { root: index.root as string, indexDir: index.indexDir as string, model: index.model as string },
    text: v.text,
    options: v.options,
  };
}

/** Pure: the reply in a line, or null when the line is not a reply of this shape. */
export function parseReply(line: string): ServeReply | null {
  const v = parseObject(line);
  if (v === null || typeof v.protocol !== 'number' || typeof v.version !== 'string' || typeof v.pid !== 'number') return null;
  const head = { protocol: v.protocol, version: v.version, pid: v.pid };
  const strings = (...keys: string[]): boolean => keys.every((k) => typeof v[k] === 'string');
  if (v.status === 'pong') return { ...head, status: 'pong' };
  if (v.status === 'declined' && strings('reason')) return { ...head, status: 'declined', reason: v.reason as string };
  if (!Number.isInteger(v.exitCode)) return null;
  const exitCode = v.exitCode as number;
  if (v.status === 'answered' && strings('stdout', 'stderr')) return { ...head, status: 'answered', stdout: v.stdout as string, stderr: v.stderr as string, exitCode };
  if (v.status === 'rejected' && strings('stdout', 'stderr', 'message')) {
    return { ...head, status: 'rejected', stdout: v.stdout as string, stderr: v.stderr as string, message: v.message as string, exitCode };
  }
  return null;
}

function parseObject(line: string): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null; // not JSON: the caller treats the line as no request (or no reply), which is what it is
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function isOptions(value: unknown): value is Record<string, OptionValue> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every(
    (o) => typeof o === 'string' || typeof o === 'boolean' || (Array.isArray(o) && o.every((s) => typeof s === 'string')),
  );
}
