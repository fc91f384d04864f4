import { Writable } from 'node:stream';
import type { CodeIndex } from '../code-index.js';
import { ConfigError } from '../errors.js';
import type { LineServer } from '../serve/line-server.js';
import type { OptionValue, ServedCommand } from '../serve/protocol.js';
import { startQueryServer, type CommandOutcome } from '../serve/query-server.js';
import { socketLocationOf } from '../serve/socket-path.js';
import { heldIndex } from './index-access.js';
import { toKnownError } from './known-errors.js';
import type { CliIO } from './output.js';
import { packageVersion } from './package-version.js';
import { SERVED_OPTIONS } from './ask-server.js';
import { queryWith, type QueryCliOptions } from './query-command.js';
import { searchWith, type SearchCliOptions } from './search-command.js';

/**
 * Starts answering CLI `search` and `query` for an index this process holds open (`watch`, `mcp`, `serve`), at the
 * index's socket. With `required` false, a socket that cannot be served (another server has it, a read-only index
 * folder) costs only warm queries: one line is logged and null returned, since every CLI then answers in-process.
 * @throws ServerBusyError, ConfigError or the listen error when `required` is true.
 */
export async function serveQueries(index: CodeIndex, o: { log: (line: string) => void; required: boolean }): Promise<LineServer | null> {
  if (index.config.store !== null) {
    if (o.required) throw sharedStoreServeError();
    o.log(`codescout: not answering search and query over a socket: ${SHARED_STORE_READERS}`);
    return null;
  }
  const location = socketLocationOf(index.indexDir);
  try {
    const server = await startQueryServer({
      location,
      version: packageVersion(),
      index: { root: index.config.root, indexDir: index.indexDir, model: index.config.model.id },
      run: (command, text, options) => runServedCommand(index, command, text, options),
    });
    o.log(`codescout: answering search and query at ${server.socketPath}`);
    return server;
  } catch (error) {
    if (o.required) throw error;
    o.log(`codescout: not answering search and query over a socket (they run in-process): ${(error as Error).message}`);
    return null;
  }
}

/** Why nothing serves a shared store: every search and query reads it (and the local layer of edits) in its own process. */
const SHARED_STORE_READERS = 'the index is in a shared store (--store): search and query read it in their own process';

/** `serve` of a shared store: one line, exit 2. */
export function sharedStoreServeError(): ConfigError {
  return new ConfigError(`Nothing to serve: ${SHARED_STORE_READERS}. Run search and query with --store instead.`, 'store');
}

/**
 * Runs one CLI command on the held index with its output captured: the very code of the in-process path, so the
 * output is the same. A user error comes back as the error; any other error rejects.
 */
export async function runServedCommand(
  index: CodeIndex,
  command: ServedCommand,
  text: string,
  options: Readonly<Record<string, OptionValue>>,
): Promise<CommandOutcome> {
  const stdout = new TextSink();
  const stderr = new TextSink();
  const io: CliIO = { stdout, stderr };
  try {
    const exitCode = command === 'search'
      ? await searchWith(io, text, only(options, SERVED_OPTIONS.search) as SearchCliOptions, heldIndex(index))
      : await queryWith(io, text, only(options, SERVED_OPTIONS.query) as QueryCliOptions, heldIndex(index));
    return { stdout: stdout.text, stderr: stderr.text, exitCode };
  } catch (error) {
    const known = toKnownError(error);
    if (known === null) throw error;
    return { stdout: stdout.text, stderr: stderr.text, error: { message: known.message, exitCode: known.exitCode } };
  }
}

/** The options a served command may take; anything else a request carries (a root, a cache dir) is dropped. */
function only(options: Readonly<Record<string, OptionValue>>, keys: readonly string[]): Record<string, OptionValue> {
  return Object.fromEntries(Object.entries(options).filter(([key]) => keys.includes(key)));
}

/** A stream that keeps what is written to it, as text. */
class TextSink extends Writable {
  private readonly parts: string[] = [];
  constructor() {
    super({ decodeStrings: false });
  }
  get text(): string {
    return this.parts.join('');
  }
  override _write(chunk: string | Buffer, encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.parts.push(chunk.toString());
    done();
  }
}
