import { openIndex, type CodeIndex } from '../code-index.js';
import { watchIndex } from '../watch/watch-index.js';
import type { LineServer } from '../serve/line-server.js';
import { indexOptions, printNotes, type IndexCliOptions } from './index-commands.js';
import { serveQueries } from './served-commands.js';
import { storedFiltersNote } from './stored-filters.js';
import { eprintln, printJson, println, type CliIO } from './output.js';
import { createProgressReporter } from './progress.js';
import { stopSignal } from './stop-signal.js';

/** Most paths a batch line names before "and N more". */
const MAX_NAMED_PATHS = 5;

/** `a, b, c, d, e and 3 more`: the first few paths of a batch. */
export function namePaths(paths: readonly string[], max = MAX_NAMED_PATHS): string {
  const shown = paths.slice(0, max).join(', ');
  return paths.length > max ? `${shown} and ${paths.length - max} more` : shown;
}

/**
 * `codescout watch [root]`: reconciles, prints a ready line, then one line per applied batch until SIGINT/SIGTERM,
 * when it applies what is pending, saves and exits 0.
 */
export async function runWatch(io: CliIO, root: string | undefined, o: IndexCliOptions & { poll?: boolean }): Promise<number> {
  // With a shared store, the working tree's edits go to a local layer over it: the shared index is never written.
  const index = await openIndex({ ...indexOptions(root, o), localEdits: true });
  try {
    index.assertWritable(); // one clear line now, not a watcher error and then the same error again
  } catch (error) {
    await index.close();
    throw error;
  }
  const filtersNote = storedFiltersNote(index.storedFilters);
  if (filtersNote !== null) eprintln(io, filtersNote);
  printNotes(io, index);
  if ((await index.state()).indexState === 'empty') {
    try {
      await firstBuild(io, index, !o.json);
    } catch (error) {
      await index.close();
      throw error; // Ctrl-C: AbortError, exit 130, every file committed so far stays
    }
  }
  const watcher = watchIndex(index, { usePolling: o.poll });
  watcher.on('warning', (m) => eprintln(io, `codescout: warning: ${m}`));
  watcher.on('error', (e) => eprintln(io, `codescout: error: ${e.message}`));
  watcher.on('updated', (b) => {
    const r = b.report;
    if (o.json) {
      const paths = b.fullPass ? {} : { paths: { changed: [...b.changedPaths], removed: [...b.removedPaths] } };
      printJson(io, { event: 'updated', changed: b.changed, removed: b.removed, fullPass: b.fullPass, embedded: r.embedded, reused: r.reused, files: r.files, chunks: r.chunks, ms: b.ms, ...paths });
      return;
    }
    println(io, `${b.fullPass ? 'rescanned' : `${b.changed} changed, ${b.removed} removed`}: ${r.embedded} chunks embedded, ${r.reused} reused (${r.files} files, ${r.chunks} chunks) in ${b.ms} ms`);
    if (b.changedPaths.length > 0) println(io, `  changed: ${namePaths(b.changedPaths)}`);
    if (b.removedPaths.length > 0) println(io, `  removed: ${namePaths(b.removedPaths)}`);
  });
  let server: LineServer | null;
  try {
    await watcher.ready;
    // Once reconciled: from here, search and query in other shells are answered by this process, warm.
    server = await serveQueries(index, { log: (line) => eprintln(io, line), required: false });
  } catch (error) {
    await watcher.close().catch(() => undefined);
    await index.close();
    throw error;
  }
  // Handlers first: a client that signals as soon as it reads the ready line must find them in place.
  const stopped = stopSignal();
  const s = await index.stats();
  if (o.json) printJson(io, { event: 'ready', root: s.root, files: s.files, chunks: s.chunks });
  else println(io, `watching ${s.root} (${s.files} files, ${s.chunks} chunks). Ctrl-C to stop.`);
  await stopped;
  await server?.close();
  await watcher.close();
  await index.close();
  if (!o.json) println(io, 'stopped; index saved.');
  return 0;
}

/** Builds an empty index before watching, with the progress `index` shows (on stderr); SIGINT/SIGTERM abort it. */
async function firstBuild(io: CliIO, index: CodeIndex, showProgress: boolean): Promise<void> {
  const progress = createProgressReporter(io, showProgress);
  const abort = new AbortController();
  const stop = (): void => abort.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    if (showProgress) eprintln(io, `first build of ${index.config.root}: indexing it before watching`);
    await index.update({ onProgress: progress.listener, signal: abort.signal });
  } finally {
    progress.stop();
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
