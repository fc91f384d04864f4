import cliProgress from 'cli-progress';
import type { ProgressListener } from '../indexer/update-report.js';
import { eprintln, type CliIO } from './output.js';

/** At most one plain progress line per this many ms when stderr is not a terminal. */
const PLAIN_LINE_INTERVAL_MS = 1000;

/**
 * A progress listener for people: on a TTY a bar of files chunked, then (files are searchable by words from then
 * on) a bar of texts embedded, each with an ETA; a few plain lines otherwise. Progress goes to stderr so stdout
 * stays clean for results and --json.
 */
export function createProgressReporter(io: CliIO, enabled: boolean): { listener: ProgressListener; stop: () => void } {
  if (!enabled) return { listener: () => undefined, stop: () => undefined };
  const isTty = Boolean(io.stderr.isTTY);
  let bar: { stage: 'files' | 'embed'; bar: cliProgress.SingleBar } | undefined;
  let lastPlain = 0;
  const barFor = (stage: 'files' | 'embed', total: number): cliProgress.SingleBar => {
    if (bar?.stage === stage) return bar.bar;
    bar?.bar.stop();
    const format = stage === 'files'
      ? 'chunking  [{bar}] {value}/{total} files | ETA {eta_formatted}'
      : 'embedding [{bar}] {value}/{total} chunks | searchable by words now | ETA {eta_formatted}';
    const made = new cliProgress.SingleBar(
      { stream: io.stderr as NodeJS.WriteStream, format, hideCursor: true, clearOnComplete: true, etaBuffer: 50 },
      cliProgress.Presets.shades_classic,
    );
    made.start(total, 0);
    bar = { stage, bar: made };
    return made;
  };
  const listener: ProgressListener = (p) => {
    if (p.phase === 'model' && p.message) {
      eprintln(io, `model: ${p.message}`);
      return;
    }
    if (p.phase !== 'index' || (p.filesTotal === 0 && (p.textsWaiting ?? 0) === 0)) return;
    const waiting = p.textsWaiting ?? 0;
    const embedding = p.filesDone === p.filesTotal && waiting > 0;
    if (isTty) {
      if (!embedding && p.filesDone < p.filesTotal) {
        barFor('files', p.filesTotal).update(p.filesDone);
      } else if (embedding) {
        const b = barFor('embed', p.chunksEmbedded + waiting);
        b.setTotal(p.chunksEmbedded + waiting);
        b.update(p.chunksEmbedded);
      }
    } else if (Date.now() - lastPlain >= PLAIN_LINE_INTERVAL_MS || (p.filesDone === p.filesTotal && waiting === 0)) {
      lastPlain = Date.now();
      const behind = waiting > 0 ? `, ${waiting} waiting (searchable by words)` : '';
      eprintln(io, `indexing: ${p.filesDone}/${p.filesTotal} files, ${p.chunksEmbedded} chunks embedded${behind}`);
    }
  };
  return { listener, stop: () => bar?.bar.stop() };
}
