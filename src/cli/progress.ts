import cliProgress from 'cli-progress';
import type { ProgressListener } from '../indexer/update-report.js';
import { eprintln, type CliIO } from './output.js';

/** At most one plain progress line per this many ms when stderr is not a terminal. */
const PLAIN_LINE_INTERVAL_MS = 1000;

/**
 * A progress listener for people: a bar (files, chunks embedded, ETA) on a TTY, a few plain lines otherwise.
 * Progress goes to stderr so stdout stays clean for results and --json.
 */
export function createProgressReporter(io: CliIO, enabled: boolean): { listener: ProgressListener; stop: () => void } {
  if (!enabled) return { listener: () => undefined, stop: () => undefined };
  const isTty = Boolean(io.stderr.isTTY);
  let bar: cliProgress.SingleBar | undefined;
  let lastPlain = 0;
  const listener: ProgressListener = (p) => {
    if (p.phase === 'model' && p.message) {
      eprintln(io, `model: ${p.message}`);
      return;
    }
    if (p.phase !== 'index' || p.filesTotal === 0) return;
    if (isTty) {
      bar ??= new cliProgress.SingleBar(
        {
          stream: io.stderr as NodeJS.WriteStream,
          format: 'indexing [{bar}] {value}/{total} files | {chunks} chunks embedded | ETA {eta_formatted}',
          hideCursor: true,
          clearOnComplete: true,
        },
        cliProgress.Presets.shades_classic,
      );
      if (!bar.isActive) bar.start(p.filesTotal, 0, { chunks: 0 });
      bar.update(p.filesDone, { chunks: p.chunksEmbedded });
    } else if (Date.now() - lastPlain >= PLAIN_LINE_INTERVAL_MS || p.filesDone === p.filesTotal) {
      lastPlain = Date.now();
      eprintln(io, `indexing: ${p.filesDone}/${p.filesTotal} files, ${p.chunksEmbedded} chunks embedded`);
    }
  };
  return { listener, stop: () => bar?.stop() };
}
