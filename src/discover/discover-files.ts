import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AbortError } from '../errors.js';
import type { SkippedFile, SourceFile } from '../types.js';
import { inspectFile, skipReasonForName, DEFAULT_MAX_FILE_BYTES } from './file-guards.js';
import { isInsideRoot, resolveRealRoot } from './open-regular-file.js';
import { createPathFilter, type PathFilterOptions } from './path-filter.js';
import { DEFAULT_SECRET_POLICY, type SecretPolicy } from './secret-policy.js';

/** Options of `discoverFiles`. */
export interface DiscoverOptions extends PathFilterOptions {
  /** Absolute path of the directory to walk. */
  readonly root: string;
  /** Size cap of an indexed file in bytes; default 1 MiB. */
  readonly maxFileBytes?: number;
  /** Ends the walk between directories and files with AbortError (Ctrl-C during a long discovery). */
  readonly signal?: AbortSignal;
  /** Files kept out as secrets (by name and by content); default: every rule, no exception. */
  readonly secrets?: SecretPolicy;
}

/** Files to index (sorted by path) and files left out with a reason (sorted by path). */
export interface DiscoverResult {
  readonly files: SourceFile[];
  readonly skipped: SkippedFile[];
}

/** A file found by the walk, before the content guards. */
interface Candidate {
  readonly relPath: string;
  readonly absPath: string;
  readonly realPath: string;
  /** Reached through a symlink (the file itself or a directory above it). */
  readonly viaSymlink: boolean;
}

interface PendingDir {
  readonly relPath: string;
  readonly absPath: string;
  readonly realPath: string;
  readonly viaSymlink: boolean;
}

/** Files inspected at once; enough to hide I/O latency without exhausting file handles. */
const INSPECT_CONCURRENCY = 32;

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError('Discovery aborted; the index is unchanged.');
}

async function mapLimit<T, R>(items: readonly T[], o: { limit: number; signal?: AbortSignal }, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      throwIfAborted(o.signal);
      const i = next;
      next += 1;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(o.limit, items.length) }, worker));
  return results;
}

/**
 * Walks `root` and returns the files to index, honouring ignore files, default ignored directories, `excludeDirs`,
 * include/exclude globs, the content guards and the secret policy. Symlinks resolving outside the root are skipped,
 * directory loops are cut (realpaths are tracked), and a file reached twice is indexed once. FIFOs, sockets and
 * devices are reported in `skipped` and never opened in a way that blocks. Unreadable files and directories are
 * reported in `skipped`, never thrown.
 * Throws ConfigError when a glob is malformed or the root cannot be resolved, AbortError once `signal` aborts.
 * @example
 * const { files, skipped } = await discoverFiles({ root: '/repo', exclude: ['**\/*.test.ts'] });
 */
export async function discoverFiles(options: DiscoverOptions): Promise<DiscoverResult> {
  const filter = createPathFilter(options.root, options);
  const skipped: SkippedFile[] = [];
  const candidates: Candidate[] = [];
  const realRoot = await resolveRealRoot(options.root);
  const secrets = options.secrets ?? DEFAULT_SECRET_POLICY;
  // The path filter leaves out excluded folders by path; a link to one (or into one) is left out by its real path.
  const excludedReal = (await Promise.all((options.excludeDirs ?? []).map((d) => realpath(d).catch(() => null))))
    .filter((d): d is string => d !== null && d !== realRoot && !isInsideRoot(d, realRoot));
  const isExcludedReal = (real: string): boolean => excludedReal.some((d) => isInsideRoot(d, real));
  const visitedDirs = new Set<string>([realRoot]);
  // Real directories are walked before symlinked ones, so a link never hides the real tree.
  const realQueue: PendingDir[] = [{ relPath: '', absPath: options.root, realPath: realRoot, viaSymlink: false }];
  const linkQueue: PendingDir[] = [];

  const visitEntry = async (dir: PendingDir, entry: Dirent): Promise<void> => {
    const relPath = dir.relPath === '' ? entry.name : `${dir.relPath}/${entry.name}`;
    const absPath = join(dir.absPath, entry.name);
    if (entry.isSymbolicLink()) {
      let target: string;
      let isDir: boolean;
      try {
        target = await realpath(absPath);
        isDir = (await stat(target)).isDirectory();
      } catch (error) {
        skipped.push({ path: relPath, reason: `broken symlink: ${(error as Error).message}` });
        return;
      }
      if (!isInsideRoot(realRoot, target)) {
        if (!filter.isIgnored(relPath, isDir)) skipped.push({ path: relPath, reason: 'symlink resolves outside the root' });
        return;
      }
      if (filter.isIgnored(relPath, isDir) || isExcludedReal(target)) return;
      if (isDir) linkQueue.push({ relPath, absPath, realPath: target, viaSymlink: true });
      else candidates.push({ relPath, absPath, realPath: target, viaSymlink: true });
      return;
    }
    if (entry.isDirectory()) {
      if (filter.isIgnored(relPath, true)) return;
      const pending = { relPath, absPath, realPath: join(dir.realPath, entry.name), viaSymlink: dir.viaSymlink };
      (dir.viaSymlink ? linkQueue : realQueue).push(pending);
      return;
    }
    // Regular files, and FIFOs, sockets and devices too: inspectFile refuses those with a reason for the report.
    if (!filter.isIgnored(relPath, false)) {
      candidates.push({ relPath, absPath, realPath: join(dir.realPath, entry.name), viaSymlink: dir.viaSymlink });
    }
  };

  const walk = async (dir: PendingDir): Promise<void> => {
    throwIfAborted(options.signal);
    let entries: Dirent[];
    try {
      entries = await readdir(dir.absPath, { withFileTypes: true });
    } catch (error) {
      skipped.push({ path: dir.relPath === '' ? '.' : `${dir.relPath}/`, reason: `unreadable directory: ${(error as Error).message}` });
      return;
    }
    for (const entry of entries) {
      throwIfAborted(options.signal);
      await visitEntry(dir, entry);
    }
  };

  while (realQueue.length > 0 || linkQueue.length > 0) {
    // Walk a whole level of real directories in parallel; links wait until no real directory is left.
    const batch = realQueue.length > 0 ? realQueue.splice(0) : linkQueue.splice(0, 1);
    const fresh = batch.filter((dir) => {
      if (!dir.viaSymlink) return true;
      if (visitedDirs.has(dir.realPath)) {
        skipped.push({ path: `${dir.relPath}/`, reason: 'symlinked directory already walked (loop or duplicate)' });
        return false;
      }
      visitedDirs.add(dir.realPath);
      return true;
    });
    for (const dir of fresh) if (!dir.viaSymlink) visitedDirs.add(dir.realPath);
    await Promise.all(fresh.map(walk));
  }

  const unique = dedupeByRealPath(candidates, skipped);
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const files: SourceFile[] = [];
  const toInspect: Candidate[] = [];
  for (const candidate of unique) {
    const byName = skipReasonForName(candidate.relPath, secrets);
    if (byName === null) toInspect.push(candidate);
    else skipped.push({ path: candidate.relPath, reason: byName });
  }
  const inspected = await mapLimit(toInspect, { limit: INSPECT_CONCURRENCY, signal: options.signal }, (c) =>
    inspectFile({ root: options.root, realRoot, absPath: c.absPath, relPath: c.relPath, maxFileBytes, secrets }),
  );
  for (const result of inspected) {
    if ('file' in result) files.push(result.file);
    else skipped.push(result.skipped);
  }
  files.sort((a, b) => compare(a.path, b.path));
  skipped.sort((a, b) => compare(a.path, b.path));
  return { files, skipped };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Keeps one candidate per real path: the one reached without symlinks, else the first by path. */
function dedupeByRealPath(candidates: Candidate[], skipped: SkippedFile[]): Candidate[] {
  const ordered = [...candidates].sort(
    (a, b) => Number(a.viaSymlink) - Number(b.viaSymlink) || compare(a.relPath, b.relPath),
  );
  const kept = new Map<string, Candidate>();
  for (const candidate of ordered) {
    const first = kept.get(candidate.realPath);
    if (first === undefined) kept.set(candidate.realPath, candidate);
    else skipped.push({ path: candidate.relPath, reason: `duplicate of ${first.relPath} (symlink)` });
  }
  return [...kept.values()];
}
