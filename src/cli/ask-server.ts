import { resolveConfig } from '../config.js';
import { indexDirFor } from '../indexer/index-location.js';
import { SERVE_PROTOCOL, type OptionValue, type ServedCommand, type ServedIndex } from '../serve/protocol.js';
import { askQueryServer } from '../serve/query-client.js';
import { ServedUserError } from '../serve/served-user-error.js';
import { socketLocationOf, type SocketLocation } from '../serve/socket-path.js';
import { eprintln, type CliIO } from './output.js';
import { packageVersion } from './package-version.js';

/** Options of `search` and `query` about where they are answered. */
export interface ServeCliOptions {
  /** False (`--no-server`): always answer in-process, even when a server runs. */
  server?: boolean;
  /** Say on stderr which path answered: the query server (and its pid) or in-process (and why). */
  verbose?: boolean;
}

/**
 * The options of each command a query server runs it with. The others name the index, which the server already
 * holds; `query --judge-cmd` is never served (its command runs beside the CLI).
 */
export const SERVED_OPTIONS: Readonly<Record<ServedCommand, readonly string[]>> = Object.freeze({
  search: Object.freeze(['k', 'mode', 'include', 'exclude', 'threshold', 'context', 'text', 'filesOnly', 'json']),
  query: Object.freeze(['keywords', 'patterns', 'exclude', 'maxCycles', 'minHigh', 'single', 'judge', 'json']),
});

/** The options of `search` and `query` that say which index (as commander parses them). */
interface IndexNaming {
  root?: string;
  cacheDir?: string;
  model?: string;
  modelDir?: string;
  judgeCmd?: string;
  store?: string;
}

/** What the CLI asks a server to run. */
export interface ServedCall {
  readonly command: ServedCommand;
  readonly text: string;
  readonly options: IndexNaming & ServeCliOptions;
}

/**
 * Runs a command through the query server of its index when one answers, else in-process with `inProcess` (loaded
 * only then: the warm path never loads the model, the catalog or the retrieval code). Returns the exit code.
 * @throws ServedUserError as {@link answerFromServer}, and whatever `inProcess` throws.
 */
export async function servedOrInProcess(io: CliIO, call: ServedCall, inProcess: () => Promise<number>): Promise<number> {
  return (await answerFromServer(io, call)) ?? (await inProcess());
}

/**
 * Lets the query server of the index (a running `watch`, `mcp` or `serve`) answer a command: writes its output as
 * the server gives it and returns the exit code, or returns null when the command is to run in-process (no server,
 * `--no-server`, a server of another version or index, or a transport error). With `--verbose`, one stderr line
 * says which path answered.
 * @throws ServedUserError with the server's message and exit code when the command met a user error there.
 */
export async function answerFromServer(io: CliIO, call: ServedCall): Promise<number | null> {
  const say = (line: string): void => {
    if (call.options.verbose) eprintln(io, `codescout: ${line}`);
  };
  const whyNot = call.options.server === false
    ? '--no-server'
    : call.command === 'query' && call.options.judgeCmd !== undefined ? '--judge-cmd runs its command from this process' : undefined;
  if (whyNot !== undefined) {
    say(`answered in-process (${whyNot})`);
    return null;
  }
  const target = servedTarget(call.options);
  if (typeof target === 'string') {
    say(`answered in-process (${target})`);
    return null;
  }
  const version = packageVersion();
  const started = performance.now();
  const asked = await askQueryServer(target.location, {
    protocol: SERVE_PROTOCOL, version, command: call.command, index: target.index, text: call.text, options: pick(call.options as Readonly<Record<string, unknown>>, SERVED_OPTIONS[call.command]),
  });
  if ('unavailable' in asked) {
    say(`answered in-process (${asked.unavailable})`);
    return null;
  }
  const reply = asked.reply;
  if (reply.protocol !== SERVE_PROTOCOL || reply.version !== version) {
    say(`answered in-process (the server at ${target.location.socketPath} is codescout ${reply.version}, protocol ${reply.protocol})`);
    return null;
  }
  if (reply.status === 'declined' || reply.status === 'pong') {
    say(`answered in-process (${reply.status === 'declined' ? reply.reason : 'the server did not run the command'})`);
    return null;
  }
  say(`answered by the query server at ${target.location.socketPath} (pid ${reply.pid}) in ${Math.round(performance.now() - started)} ms`);
  io.stdout.write(reply.stdout);
  io.stderr.write(reply.stderr);
  if (reply.status === 'rejected') throw new ServedUserError(reply.message, reply.exitCode);
  return reply.exitCode;
}

/**
 * The socket of the index these options name and that index's identity, or why there is none to ask. Anything the
 * options get wrong (a missing root, a bad codescout.json) is left to the in-process path, which reports it as usual.
 */
function servedTarget(o: ServedCall['options']): { location: SocketLocation; index: ServedIndex } | string {
  let config;
  try {
    config = resolveConfig({ root: o.root ?? '.', cacheDir: o.cacheDir, model: o.model, modelDir: o.modelDir, store: o.store });
  } catch (error) {
    return `the options name no index to ask a server about: ${(error as Error).message}`;
  }
  // A query server holds an embedded index; a shared store is read from here, by every caller alike.
  if (config.store !== null) return 'the index is in a shared store (--store)';
  const indexDir = indexDirFor(config.cacheDir, config.root);
  return { location: socketLocationOf(indexDir), index: { root: config.root, indexDir, model: config.model.id } };
}

/** The served options that are set, as they travel (commander gives strings, booleans and string lists). */
function pick(options: Readonly<Record<string, unknown>>, keys: readonly string[]): Record<string, OptionValue> {
  const picked: Record<string, OptionValue> = {};
  for (const key of keys) {
    const value = options[key];
    if (typeof value === 'string' || typeof value === 'boolean' || (Array.isArray(value) && value.every((v) => typeof v === 'string'))) picked[key] = value as OptionValue;
  }
  return picked;
}
