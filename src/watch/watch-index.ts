import { EventEmitter } from 'node:events';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import chokidar, { type FSWatcher } from 'chokidar';
import type { CodeIndex } from '../code-index.js';
import { createPathFilter, inspectFile } from '../discover/index.js';
import { IndexLockedError } from '../errors.js';
import type { UpdateReport } from '../indexer/update-report.js';
import type { SkippedFile, SourceFile } from '../types.js';
import { PendingChanges } from './change-set.js';

/** Options of {@link watchIndex}, with units in the names. */
export interface WatchOptions {
  /** Quiet time that closes a batch (ms). */
  debounceMs?: number;
  /** Longest a batch may be held open by a stream of events (ms). */
  maxBatchDelayMs?: number;
  /** How long a file's size must stay unchanged before it is read (ms): partially written files settle. */
  settleMs?: number;
  /** Paths tracked before the queue collapses into one full pass. */
  maxPendingPaths?: number;
  /** How long a batch waits for another writer (e.g. `codescout index`) to finish (ms). */
  lockWaitMs?: number;
  /** Pause before a batch that waited out `lockWaitMs` tries again (ms); it is kept, never dropped. */
  lockRetryMs?: number;
  /** Poll instead of using OS watchers (also the fallback when the OS watch limit is reached). */
  usePolling?: boolean;
}

/** One applied batch. */
export interface WatchBatch {
  readonly changed: number;
  readonly removed: number;
  readonly fullPass: boolean;
  /** Root-relative paths of the changed files (empty for a full pass). */
  readonly changedPaths: readonly string[];
  /** Root-relative paths of the removed files and folders (empty for a full pass). */
  readonly removedPaths: readonly string[];
  readonly report: UpdateReport;
  readonly ms: number;
}

/** Events of a running watcher. */
export interface WatcherEvents {
  updated: [batch: WatchBatch];
  error: [error: Error];
  warning: [message: string];
}

/** A running watcher. */
export interface IndexWatcher {
  /** Resolves once the index is reconciled with the disk and file events are flowing. */
  readonly ready: Promise<void>;
  on<E extends keyof WatcherEvents>(event: E, listener: (...args: WatcherEvents[E]) => void): this;
  off<E extends keyof WatcherEvents>(event: E, listener: (...args: WatcherEvents[E]) => void): this;
  /** Resolves when every batch received so far has been applied. */
  idle(): Promise<void>;
  /** Stops watching, applies what is pending, saves the vectors. */
  close(): Promise<void>;
}

/**
 * How often a settling file's size is polled (ms). Not lower: a branch switch settles hundreds of files at once,
 * and every poll is a stat call on Node's small I/O thread pool.
 */
const SETTLE_POLL_MS = 25;

/**
 * How long after a new folder appears it is listed again (ms): by then chokidar watches it, so a file written
 * later raises its own event and one written before is found by the listing.
 */
const NEW_FOLDER_RESCAN_MS = 250;

const DEFAULT_WATCH = Object.freeze({
  debounceMs: 75, maxBatchDelayMs: 1000, settleMs: 50, maxPendingPaths: 5000, usePolling: false, lockWaitMs: 60_000, lockRetryMs: 1000,
});

/** Folder names never watched, whatever the ignore files say: heavy and never source. */
const NEVER_WATCHED = new Set(['.git', 'node_modules', 'index-cache']);

/**
 * Keeps an index current: chokidar events (with the discovery ignore rules applied before anything is watched)
 * become debounced change sets that the index applies through its incremental path. The watcher itself never
 * embeds or writes. Startup reconciles the index with the disk before `ready`.
 * @example
 * const watcher = watchIndex(index);
 * await watcher.ready;
 * watcher.on('updated', (b) => console.log(b.changed, 'files'));
 */
export function watchIndex(index: CodeIndex, options: WatchOptions = {}): IndexWatcher {
  const o = { ...DEFAULT_WATCH, ...options };
  const root = index.config.root;
  const cacheDir = index.config.cacheDir;
  const filter = createPathFilter(root, { include: index.config.include, exclude: index.config.exclude });
  const emitter = new EventEmitter();
  const pending = new PendingChanges(o.maxPendingPaths);
  let fsw: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  let batchOpenedAt = 0;
  let running: Promise<void> = Promise.resolve();
  let closed = false;
  let polling = o.usePolling;
  let waitingForLock = false;

  const rel = (abs: string): string => path.relative(root, abs).split(path.sep).join('/');

  const isIgnored = (abs: string, stats?: { isDirectory(): boolean; isFile(): boolean }): boolean => {
    const r = rel(abs);
    if (r === '' ) return false;
    if (r.startsWith('..') || abs === cacheDir || abs.startsWith(cacheDir + path.sep)) return true;
    if (r.split('/').some((part) => NEVER_WATCHED.has(part))) return true;
    if (!stats) return false; // decided again once chokidar has the stats
    return filter.isIgnored(r, stats.isDirectory());
  };

  const schedule = (): void => {
    if (closed) return;
    const now = Date.now();
    if (!timer) batchOpenedAt = now;
    clearTimeout(timer);
    const wait = Math.max(0, Math.min(o.debounceMs, batchOpenedAt + o.maxBatchDelayMs - now));
    timer = setTimeout(() => {
      timer = undefined;
      running = running.then(applyBatch);
    }, wait);
  };

  const applyBatch = async (): Promise<void> => {
    if (pending.isEmpty) return;
    const started = performance.now();
    const { changed, removed, fullPass } = pending.take();
    try {
      let report: UpdateReport;
      if (fullPass) {
        filter.reloadIgnoreFiles();
        report = await index.update({ lockWaitMs: o.lockWaitMs });
      } else {
        const files: SourceFile[] = [];
        const gone = [...removed];
        const skipped: SkippedFile[] = [];
        for (const p of changed) {
          // inspectFile refuses a link out of the root and never blocks on a FIFO (one would wedge every later batch).
          const found = await inspectFile({ ...index.discovery, absPath: path.join(root, p), relPath: p });
          if ('file' in found) files.push(found.file);
          else {
            skipped.push(found.skipped);
            gone.push(p); // vanished, or now too big / binary / generated / not a regular file: it no longer belongs
          }
        }
        report = await index.applyChanges({ files, removed: gone }, { lockWaitMs: o.lockWaitMs });
        report = { ...report, skipped: [...skipped, ...report.skipped] };
      }
      waitingForLock = false;
      emitter.emit('updated', { changed: changed.length, removed: removed.length, fullPass, changedPaths: fullPass ? [] : [...changed], removedPaths: fullPass ? [] : [...removed], report, ms: Math.round(performance.now() - started) });
    } catch (error) {
      if (error instanceof IndexLockedError && !closed) {
        keepForRetry({ changed, removed, fullPass }, error);
        return;
      }
      emitter.emit('error', error instanceof Error ? error : new Error(String(error)));
    }
  };

  /** Another writer kept the lock past lockWaitMs: the batch goes back in the queue and is tried again later. */
  const keepForRetry = (batch: { changed: string[]; removed: string[]; fullPass: boolean }, error: IndexLockedError): void => {
    pending.putBack(batch);
    if (!waitingForLock) {
      waitingForLock = true;
      emitter.emit('warning', `${error.message} The changes are kept and applied once it is done.`);
    }
    if (timer) return; // newer events already scheduled a batch, which carries these changes too
    timer = setTimeout(() => {
      timer = undefined;
      running = running.then(applyBatch);
    }, o.lockRetryMs);
  };

  const onFile = (kind: 'change' | 'remove') => (abs: string): void => {
    const r = rel(abs);
    if (path.posix.basename(r) === '.gitignore' || path.posix.basename(r) === '.codescoutignore') {
      // Which files belong may have changed anywhere below: re-evaluate them all in one reconcile pass.
      pending.needsFullPass = true;
    } else if (kind === 'change') pending.change(r);
    else pending.remove(r);
    schedule();
  };

  /**
   * Lists new folders once chokidar watches them: a file created in one between chokidar's own listing and its watch
   * raises no event (seen with bursts of writes into new folders), so any file chokidar does not know is queued as
   * changed and handed to chokidar to watch. Folders appearing together (a branch switch) are listed in one go, each
   * tree once, against one snapshot of what chokidar watches.
   */
  const newFolders = new Set<string>();
  let scanTimer: NodeJS.Timeout | undefined;
  let scanChain: Promise<void> = Promise.resolve();
  /** Scans waiting for their timer or running: idle() waits for them. */
  let scansInFlight = 0;
  const rescanNewFolder = (absDir: string): void => {
    newFolders.add(absDir);
    if (scanTimer) return;
    scansInFlight++;
    scanTimer = setTimeout(() => {
      scanTimer = undefined;
      scanChain = scanChain.then(scanNewFolders).finally(() => scansInFlight--);
    }, NEW_FOLDER_RESCAN_MS);
  };

  const scanNewFolders = async (): Promise<void> => {
    const dirs = [...newFolders];
    newFolders.clear();
    const grouped = new Set(dirs);
    const tops = dirs.filter((d) => !ancestorsOf(d).some((a) => grouped.has(a)));
    const watched = fsw?.getWatched() ?? {};
    const found: string[] = [];
    for (const dir of tops) await listUnwatched(dir, watched, found).catch(() => undefined); // gone again: its unlinkDir covers it
    if (closed || found.length === 0) return;
    for (const abs of found) {
      pending.change(rel(abs));
      fsw?.add(abs);
    }
    schedule();
  };

  const listUnwatched = async (dir: string, watched: Record<string, string[]>, found: string[]): Promise<void> => {
    const known = new Set(watched[dir] ?? []);
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const abs = path.join(dir, entry.name);
      if (isIgnored(abs, entry)) continue;
      if (entry.isDirectory()) await listUnwatched(abs, watched, found);
      else if (entry.isFile() && !known.has(entry.name)) found.push(abs);
    }
  };

  const start = (usePolling: boolean): Promise<void> =>
    new Promise((resolve, reject) => {
      const w = chokidar.watch(root, {
        ignored: isIgnored,
        ignoreInitial: true,
        followSymlinks: false,
        usePolling,
        interval: 200,
        awaitWriteFinish: { stabilityThreshold: o.settleMs, pollInterval: SETTLE_POLL_MS },
      });
      fsw = w;
      w.on('add', onFile('change'));
      w.on('change', onFile('change'));
      w.on('unlink', onFile('remove'));
      w.on('unlinkDir', onFile('remove'));
      w.on('addDir', rescanNewFolder);
      w.on('ready', () => resolve());
      w.on('error', (err: unknown) => {
        const error = err as NodeJS.ErrnoException;
        if ((error.code === 'ENOSPC' || error.code === 'EMFILE') && !polling) {
          polling = true;
          emitter.emit('warning', `The OS file-watch limit was reached (${error.code}); falling back to polling. Raise fs.inotify.max_user_watches to avoid it.`);
          void w.close().then(() => start(true)).then(resolve, reject);
          return;
        }
        emitter.emit('error', error instanceof Error ? error : new Error(String(error)));
      });
    });

  // Catch up with everything that changed while nobody watched; batches queue behind it.
  const ready = start(polling).then(async () => {
    await index.update({ lockWaitMs: o.lockWaitMs });
  });
  running = ready.catch(() => undefined);
  ready.catch((error: unknown) => emitter.emit('error', error instanceof Error ? error : new Error(String(error))));

  const watcher: IndexWatcher = {
    ready,
    on(event, listener) {
      emitter.on(event, listener as (...args: unknown[]) => void);
      return watcher;
    },
    off(event, listener) {
      emitter.off(event, listener as (...args: unknown[]) => void);
      return watcher;
    },
    async idle() {
      while (timer || !pending.isEmpty || scansInFlight > 0) {
        await new Promise((r) => setTimeout(r, 10));
        await running;
      }
      await running;
    },
    async close() {
      if (closed) return;
      closed = true;
      await ready.catch(() => undefined);
      await fsw?.close();
      clearTimeout(timer);
      timer = undefined;
      if (scanTimer) {
        clearTimeout(scanTimer); // nothing is watched any more: a late listing would queue files for nobody
        scanTimer = undefined;
        scansInFlight--;
      }
      await scanChain;
      running = running.then(applyBatch);
      await running;
      await index.flush();
    },
  };
  return watcher;
}

/** The folders above an absolute path, nearest first, up to the file system's root. */
function ancestorsOf(absPath: string): string[] {
  const out: string[] = [];
  for (let dir = path.dirname(absPath); dir !== path.dirname(dir); dir = path.dirname(dir)) out.push(dir);
  return out;
}
