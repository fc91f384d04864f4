import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CodeIndex } from '../code-index.js';
import { createPathFilter, discoverFiles, inspectFile } from '../discover/index.js';
import { isInsideRoot, resolveRealRoot } from '../discover/open-regular-file.js';
import type { ProgressListener, UpdateReport } from '../indexer/update-report.js';
import type { SkippedFile, SourceFile } from '../types.js';
import { watchIndex, type IndexWatcher, type WatchOptions } from '../watch/watch-index.js';

/** How long a server-initiated write waits for another writer (the watcher, a CLI `index`), in ms. */
export const SERVER_LOCK_WAIT_MS = 120_000;

/** Options of {@link IndexSession}. */
export interface IndexSessionOptions {
  /** Keep the index live with a file watcher. */
  readonly watch: boolean;
  /** Where diagnostics go (the CLI sends them to stderr; stdout belongs to the protocol). */
  readonly log: (message: string) => void;
  readonly watchOptions?: WatchOptions;
}

/**
 * One served index: builds it on first use when it is empty, keeps it live with a watcher, and re-indexes chosen
 * paths on request. Writes are serialised by the index's write lock; reads run concurrently.
 */
export class IndexSession {
  private watcher: IndexWatcher | undefined;
  private watching = false;
  private building: Promise<void> | undefined;
  private closed = false;
  /** Settles once the watcher of an index that already has files is started (or it was not to be). */
  private readonly opened: Promise<void>;

  constructor(readonly index: CodeIndex, private readonly options: IndexSessionOptions) {
    // An index that already has files is served at once; the watcher's start-up pass catches up with the disk.
    this.opened = options.watch
      ? index.stats().then(
          (s) => {
            if (s.files > 0 && !this.closed && !this.watcher) this.startWatcher();
          },
          (error: unknown) => options.log(`codescout: could not read the index to start the watcher (${(error as Error).message}); ready() tries again.`),
        )
      : Promise.resolve();
  }

  /** True while the watcher is running and has caught up once. */
  get isWatching(): boolean {
    return this.watching;
  }

  /**
   * Resolves when the index is usable: builds it first if it has no files (once, shared by concurrent callers;
   * `onProgress` hears the build of the caller that started it), then starts the watcher.
   */
  async ready(onProgress?: ProgressListener): Promise<void> {
    await this.opened;
    if ((await this.index.stats()).files === 0) {
      this.building ??= this.build(onProgress).finally(() => (this.building = undefined));
      await this.building;
    }
    if (this.options.watch && !this.watcher && !this.closed) this.startWatcher();
  }

  /**
   * Re-indexes incrementally: everything (`paths` undefined), or only the given root-relative paths. A path that
   * no longer exists, or is now ignored or unindexable, is removed from the index; a folder covers all below it.
   */
  async reindex(paths: readonly string[] | undefined, onProgress?: ProgressListener): Promise<UpdateReport> {
    if (paths === undefined || paths.includes('.')) return this.index.update({ onProgress, lockWaitMs: SERVER_LOCK_WAIT_MS });
    const discovery = this.index.discovery;
    const root = discovery.root;
    const filter = createPathFilter(root, discovery);
    const files = new Map<string, SourceFile>();
    const removed = new Set<string>();
    const skipped: SkippedFile[] = [];
    let walk: Awaited<ReturnType<typeof discoverFiles>> | undefined;
    const realRoot = await resolveRealRoot(root);
    for (const rel of new Set(paths)) {
      // The real path decides, never the path's text: `up -> ../..` inside the root makes `up/x` leave it.
      const where = await locate(realRoot, path.join(root, rel));
      if (where === 'missing') {
        removed.add(rel);
      } else if (where === 'outside') {
        skipped.push({ path: rel, reason: 'symlink resolves outside the root' });
        removed.add(rel);
      } else if (where === 'directory') {
        walk ??= await discoverFiles(discovery);
        const below = (p: string): boolean => p.startsWith(`${rel}/`);
        for (const f of walk.files.filter((f) => below(f.path))) files.set(f.path, f);
        skipped.push(...walk.skipped.filter((s) => below(s.path)));
        const present = new Set(walk.files.map((f) => f.path));
        for (const f of await this.index.store.catalog.listFiles()) if (below(f.path) && !present.has(f.path)) removed.add(f.path);
      } else if (isIgnored(filter, rel)) {
        skipped.push({ path: rel, reason: 'ignored (.gitignore, .codescoutignore, default folders, the cache dir or the include/exclude globs)' });
        removed.add(rel);
      } else {
        const found = await inspectFile({ ...discovery, realRoot, absPath: path.join(root, rel), relPath: rel });
        if ('file' in found) files.set(rel, found.file);
        else {
          skipped.push(found.skipped);
          removed.add(rel); // it no longer belongs (binary, too big, generated): drop what the index holds of it
        }
      }
    }
    const report = await this.index.applyChanges({ files: [...files.values()], removed: [...removed] }, { onProgress, lockWaitMs: SERVER_LOCK_WAIT_MS });
    return { ...report, skipped: [...skipped, ...report.skipped] };
  }

  /** Stops the watcher (applying what it has pending) and closes the index. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.watching = false;
    await this.opened;
    await this.building?.catch(() => undefined);
    await this.watcher?.close().catch((error: unknown) => this.options.log(`codescout: watcher close failed: ${(error as Error).message}`));
    await this.index.close();
  }

  private async build(onProgress?: ProgressListener): Promise<void> {
    this.options.log(`codescout: the index of ${this.index.config.root} is empty; building it now`);
    const report = await this.index.update({ onProgress, lockWaitMs: SERVER_LOCK_WAIT_MS });
    this.options.log(`codescout: indexed ${report.files} files, ${report.chunks} chunks (${report.skipped.length} skipped) in ${report.seconds.toFixed(1)}s`);
  }

  private startWatcher(): void {
    const { log } = this.options;
    const watcher = watchIndex(this.index, { lockWaitMs: SERVER_LOCK_WAIT_MS, ...this.options.watchOptions });
    this.watcher = watcher;
    watcher.on('warning', (m) => log(`codescout: warning: ${m}`));
    watcher.on('error', (e) => log(`codescout: watcher error: ${e.message}`));
    watcher.on('updated', (b) => log(`codescout: ${b.fullPass ? 'rescanned' : `${b.changed} changed, ${b.removed} removed`}: ${b.report.embedded} embedded, ${b.report.reused} reused in ${b.ms} ms`));
    watcher.ready.then(
      () => {
        this.watching = !this.closed;
        log(`codescout: watching ${this.index.config.root}`);
      },
      (error: unknown) => log(`codescout: the file watcher could not start (${(error as Error).message}); the index is served without live updates. Use the reindex tool.`),
    );
  }
}

/** Where a path really is: gone (or a dangling link), outside the real root, a folder, or something else to inspect. */
async function locate(realRoot: string, abs: string): Promise<'missing' | 'outside' | 'directory' | 'other'> {
  let real: string;
  try {
    real = await realpath(abs);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    return 'other'; // ELOOP, EACCES...: inspectFile reports it as skipped with the reason
  }
  if (!isInsideRoot(realRoot, real)) return 'outside';
  const s = await stat(real).catch(() => undefined);
  return s === undefined ? 'missing' : s.isDirectory() ? 'directory' : 'other';
}

/** A file is ignored when it, or a folder above it, is. */
function isIgnored(filter: ReturnType<typeof createPathFilter>, rel: string): boolean {
  const parts = rel.split('/');
  for (let i = 1; i < parts.length; i++) if (filter.isIgnored(parts.slice(0, i).join('/'), true)) return true;
  return filter.isIgnored(rel, false);
}
