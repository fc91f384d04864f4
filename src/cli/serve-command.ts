import { openIndex } from '../code-index.js';
import { resolveConfig } from '../config.js';
import { serveQueries, sharedStoreServeError } from './served-commands.js';
import { indexOptions, printNotes, type IndexCliOptions } from './index-commands.js';
import { println, type CliIO } from './output.js';
import { stopSignal } from './stop-signal.js';

/**
 * `codescout serve [root]`: holds the index open with its model loaded and answers CLI `search` and `query` over the
 * index's socket until SIGINT/SIGTERM. It only reads: it never watches or writes (that is `watch`, which serves the
 * same way), so it also serves a read-only index and never competes with `codescout index` for the write lock; its
 * answers are what an in-process query would give at that moment, since every search first catches up with commits
 * other processes made.
 * @throws ServerBusyError (exit 5) when another process already serves the index; ModelLoadError (exit 3).
 */
export async function runServe(io: CliIO, root: string | undefined, o: IndexCliOptions): Promise<number> {
  // Refused before anything is opened: every reader of a shared store reads it in its own process.
  if (resolveConfig(indexOptions(root, o)).store !== null) throw sharedStoreServeError();
  const index = await openIndex(indexOptions(root, o));
  try {
    printNotes(io, index);
    // required: a server that cannot listen throws, so null never comes back here. Listening comes first, so a
    // second server (exit 5) or an unusable socket path is reported before the model is loaded for nothing.
    const server = (await serveQueries(index, { log: () => undefined, required: true }))!;
    try {
      // Loaded now, not by the first query: the point of a server is that no query pays for the model.
      await index.embedder();
      const stopped = stopSignal();
      const s = await index.stats();
      println(io, `serving ${s.root} (${s.files} files, ${s.chunks} chunks) at ${server.socketPath}. Ctrl-C to stop.`);
      await stopped;
    } finally {
      await server.close();
    }
    println(io, 'stopped.');
    return 0;
  } finally {
    await index.close();
  }
}
