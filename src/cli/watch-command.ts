import { openIndex } from '../code-index.js';
import { watchIndex } from '../watch/watch-index.js';
import { indexOptions, printNotes, type IndexCliOptions } from './index-commands.js';
import { eprintln, printJson, println, type CliIO } from './output.js';

/**
 * `codescout watch [root]`: reconciles, prints a ready line, then one line per applied batch until SIGINT/SIGTERM,
 * when it applies what is pending, saves and exits 0.
 */
export async function runWatch(io: CliIO, root: string | undefined, o: IndexCliOptions & { poll?: boolean }): Promise<number> {
  const index = await openIndex(indexOptions(root, o));
  try {
    index.assertWritable(); // one clear line now, not a watcher error and then the same error again
  } catch (error) {
    await index.close();
    throw error;
  }
  printNotes(io, index);
  const watcher = watchIndex(index, { usePolling: o.poll });
  watcher.on('warning', (m) => eprintln(io, `codescout: warning: ${m}`));
  watcher.on('error', (e) => eprintln(io, `codescout: error: ${e.message}`));
  watcher.on('updated', (b) => {
    const r = b.report;
    if (o.json) printJson(io, { event: 'updated', changed: b.changed, removed: b.removed, fullPass: b.fullPass, embedded: r.embedded, reused: r.reused, files: r.files, chunks: r.chunks, ms: b.ms });
    else println(io, `${b.fullPass ? 'rescanned' : `${b.changed} changed, ${b.removed} removed`}: ${r.embedded} chunks embedded, ${r.reused} reused (${r.files} files, ${r.chunks} chunks) in ${b.ms} ms`);
  });
  try {
    await watcher.ready;
  } catch (error) {
    await watcher.close().catch(() => undefined);
    await index.close();
    throw error;
  }
  // Handlers first: a client that signals as soon as it reads the ready line must find them in place.
  const stopped = new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  const s = index.stats();
  if (o.json) printJson(io, { event: 'ready', root: s.root, files: s.files, chunks: s.chunks });
  else println(io, `watching ${s.root} (${s.files} files, ${s.chunks} chunks). Ctrl-C to stop.`);
  await stopped;
  await watcher.close();
  await index.close();
  if (!o.json) println(io, 'stopped; index saved.');
  return 0;
}
