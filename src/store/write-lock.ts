import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { link, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { IndexLockedError } from '../errors.js';
import { isErrno } from './atomic-write.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-files.js';

/** File name of the write lock inside an index directory. */
export const WRITE_LOCK_FILE = 'write.lock';

/** Default pause between attempts while waiting for a held lock, in ms. */
export const LOCK_POLL_MS = 100;

/** What a lock file records about its holder. */
export interface LockOwner {
  readonly pid: number;
  readonly hostname: string;
  /** ISO 8601. */
  readonly startedAt: string;
  /** Random id telling two locks of the same process apart. */
  readonly token: string;
}

/** A held write lock on one index directory. Readers never take it. */
export interface WriteLock {
  /** Absolute path of the lock file. */
  readonly path: string;
  readonly owner: LockOwner;
  /** Removes the lock file if it is still ours; safe to call twice. Throws fs errors other than ENOENT. */
  release(): Promise<void>;
  /** Synchronous `release`, for process exit handlers. */
  releaseSync(): void;
}

/** Options of `acquireWriteLock`. */
export interface AcquireWriteLockOptions {
  /** How long to wait for a live holder before failing, in ms (default 0: fail at once). */
  readonly waitMs?: number;
  /** Pause between attempts, in ms. */
  readonly pollMs?: number;
}

/**
 * Takes the write lock of `indexDir` (`write.lock`, created atomically with its content). A lock whose
 * holder is dead (same host, pid gone) or whose file is garbage is stale and taken over.
 * Throws IndexLockedError naming the holder's pid and the lock path when a live holder keeps it past `waitMs`.
 */
export async function acquireWriteLock(indexDir: string, options: AcquireWriteLockOptions = {}): Promise<WriteLock> {
  const path = join(indexDir, WRITE_LOCK_FILE);
  const owner: LockOwner = {
    pid: process.pid, hostname: hostname(), startedAt: new Date().toISOString(), token: randomBytes(8).toString('hex'),
  };
  const content = JSON.stringify(owner);
  const deadline = Date.now() + (options.waitMs ?? 0);
  await mkdir(indexDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  for (;;) {
    if (await tryCreate(path, content, owner.token)) return heldLock(path, owner);
    const raw = await readIfPresent(path);
    if (raw === null) continue; // released between our attempt and this read: try again
    const holder = parseOwner(raw);
    if (holder === null || isDead(holder)) {
      await takeOver(path, raw, owner);
      continue;
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw lockedError(indexDir, path, holder, options.waitMs ?? 0);
    await delay(Math.min(options.pollMs ?? LOCK_POLL_MS, remaining));
  }
}

/** Creates the lock file with its full content in one step (hard link of a temp file); false when it exists. */
async function tryCreate(path: string, content: string, token: string): Promise<boolean> {
  const tmp = `${path}.${process.pid}.${token}`;
  await writeFile(tmp, content, { mode: PRIVATE_FILE_MODE });
  try {
    await link(tmp, path);
    return true;
  } catch (error) {
    if (isErrno(error, 'EEXIST')) return false;
    // Filesystems without hard links: exclusive create. Its content appears a moment later, which a
    // contender could read as garbage; acceptable where links are unavailable.
    if (isErrno(error, 'EPERM') || isErrno(error, 'ENOTSUP') || isErrno(error, 'ENOSYS')) {
      return writeFile(path, content, { flag: 'wx', mode: PRIVATE_FILE_MODE }).then(
        () => true,
        (wxError: unknown) => {
          if (isErrno(wxError, 'EEXIST')) return false;
          throw wxError;
        },
      );
    }
    throw error;
  } finally {
    await unlink(tmp);
  }
}

/** Longest a break lock may stand before it is taken for a crashed breaker's (its work takes microseconds), in ms. */
const BREAK_LOCK_MAX_AGE_MS = 10_000;

/**
 * Removes a stale lock. Breakers take turns through a second lock (`write.lock.break`, created atomically like the
 * lock itself): under it the lock file is read again and removed only if it still holds the stale content the caller
 * judged, so a fresh lock that a contender created meanwhile is never touched (renaming the lock aside and putting it
 * back, as before, lost a fresh lock when three contenders raced). The caller then competes to create the lock.
 */
async function takeOver(path: string, staleRaw: string, owner: LockOwner): Promise<void> {
  const breakPath = `${path}.break`;
  if (!(await tryCreate(breakPath, JSON.stringify(owner), `${owner.token}-break`))) {
    await clearAbandonedBreak(breakPath);
    await delay(2); // another contender is breaking it: try again after its turn
    return;
  }
  try {
    if ((await readIfPresent(path)) === staleRaw) await unlinkIfPresent(path);
  } finally {
    await unlinkIfPresent(breakPath);
  }
}

/** Removes a break lock whose holder died mid-turn (same host, pid gone) or that is older than any turn takes. */
async function clearAbandonedBreak(breakPath: string): Promise<void> {
  const [raw, info] = await Promise.all([
    readFile(breakPath, 'utf8').catch(() => null),
    stat(breakPath).catch(() => null),
  ]);
  if (raw === null || info === null) return;
  const holder = parseOwner(raw);
  if (holder === null || isDead(holder) || Date.now() - info.mtimeMs > BREAK_LOCK_MAX_AGE_MS) await unlinkIfPresent(breakPath);
}

/** The file's text, or null when it does not exist. */
async function readIfPresent(path: string): Promise<string | null> {
  return readFile(path, 'utf8').catch((error: unknown) => {
    if (isErrno(error, 'ENOENT')) return null;
    throw error;
  });
}

async function unlinkIfPresent(path: string): Promise<void> {
  await unlink(path).catch((error: unknown) => {
    if (!isErrno(error, 'ENOENT')) throw error;
  });
}

function parseOwner(raw: string): LockOwner | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null; // garbage lock file: treated as stale by the caller
  }
  const o = value as Partial<LockOwner> | null;
  const ok = o !== null && typeof o === 'object' && Number.isSafeInteger(o.pid) && (o.pid ?? 0) > 0 &&
    typeof o.hostname === 'string' && typeof o.startedAt === 'string';
  return ok ? { pid: o.pid!, hostname: o.hostname!, startedAt: o.startedAt!, token: String(o.token ?? '') } : null;
}

/** True when the holder runs on this host and its pid no longer exists; another host's holder counts as alive. */
function isDead(holder: LockOwner): boolean {
  if (holder.hostname !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return isErrno(error, 'ESRCH'); // EPERM: alive, owned by another user
  }
}

function heldLock(path: string, owner: LockOwner): WriteLock {
  const isOurs = (raw: string): boolean => parseOwner(raw)?.token === owner.token;
  return {
    path,
    owner,
    async release() {
      const raw = await readIfPresent(path); // null: already released
      if (raw !== null && isOurs(raw)) await unlink(path);
    },
    releaseSync() {
      let raw: string;
      try {
        raw = readFileSync(path, 'utf8');
      } catch (error) {
        if (isErrno(error, 'ENOENT')) return; // already released
        throw error;
      }
      if (isOurs(raw)) unlinkSync(path);
    },
  };
}

function lockedError(indexDir: string, path: string, holder: LockOwner, waitedMs: number): IndexLockedError {
  const waited = waitedMs > 0 ? ` after waiting ${waitedMs} ms` : '';
  return new IndexLockedError(
    `Index ${indexDir} is being written by process ${holder.pid} on ${holder.hostname} (since ${holder.startedAt})${waited}. ` +
      `Wait for it to finish; if no codescout process is running, delete ${path}.`,
    path,
    holder.pid,
  );
}
