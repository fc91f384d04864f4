import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { IndexLockedError } from '../../errors.js';
import type { Sql } from './connection.js';
import { ADVISORY_LOCK_CLASS } from './migrate.js';

/** Who holds a namespace's writer lock. */
export interface WriterLockHolder {
  readonly host: string;
  /** Process id on `host`. */
  readonly pid: number;
  /** ISO 8601. */
  readonly startedAt: string;
  /** The holder's server process (pg_backend_pid), which owns the advisory lock. */
  readonly backendPid: number;
}

/** What names a namespace in messages: `repo@ref on <redacted connection string>`. */
export interface LockSubject {
  readonly namespaceId: number;
  readonly label: string;
}

/** What {@link acquireWriterLock} locks and how long it waits. */
export interface AcquireWriterLockOptions extends LockSubject {
  /** How long to wait for another writer to let go before failing, in ms (default 0: fail at once). */
  readonly waitMs?: number;
}

/** Pauses between attempts while waiting for the lock: the first, doubling up to the last, in ms. */
const LOCK_RETRY = Object.freeze({ firstPauseMs: 50, maxPauseMs: 500 });

/**
 * Takes the writer lock of a namespace on the writer's own connection: a session advisory lock, freed by
 * {@link releaseWriterLock} or by the server when the connection ends (a killed writer frees it). While another
 * writer holds it, tries again (pg_try_advisory_lock, pauses growing from 50 to 500 ms) until `waitMs` has passed;
 * a try-lock rather than a blocking pg_advisory_lock, so the wait needs no statement timeout and ends on our clock.
 * Records the holder in `writer_locks`. Throws IndexLockedError naming the holder's host, pid and start time.
 */
export async function acquireWriterLock(sql: Sql, options: AcquireWriterLockOptions): Promise<WriterLockHolder> {
  const waitMs = Math.max(0, options.waitMs ?? 0);
  const deadline = Date.now() + waitMs;
  let pauseMs: number = LOCK_RETRY.firstPauseMs;
  while (!(await tryLock(sql, options.namespaceId))) {
    const remainingMs = deadline - Date.now();
    if (remainingMs <= 0) throw lockedError(options, await currentHolder(sql, options.namespaceId), waitMs);
    await delay(Math.min(pauseMs, remainingMs));
    pauseMs = Math.min(pauseMs * 2, LOCK_RETRY.maxPauseMs);
  }
  const [own] = await sql.rows<{ host: string; pid: number; started_at: Date; backend_pid: number }>(
    `INSERT INTO writer_locks (namespace_id, host, pid, started_at, backend_pid) VALUES ($1, $2, $3, now(), pg_backend_pid())
     ON CONFLICT (namespace_id) DO UPDATE SET host = excluded.host, pid = excluded.pid, started_at = excluded.started_at,
       backend_pid = excluded.backend_pid
     RETURNING host, pid, started_at, backend_pid`,
    [options.namespaceId, hostname(), process.pid],
  );
  return { host: own!.host, pid: own!.pid, startedAt: own!.started_at.toISOString(), backendPid: own!.backend_pid };
}

async function tryLock(sql: Sql, namespaceId: number): Promise<boolean> {
  const [got] = await sql.rows<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2::integer) AS locked', [ADVISORY_LOCK_CLASS, namespaceId]);
  return got?.locked === true;
}

/** Forgets the holder row and frees the advisory lock; runs on the connection that took it. */
export async function releaseWriterLock(sql: Sql, namespaceId: number): Promise<void> {
  await sql.count('DELETE FROM writer_locks WHERE namespace_id = $1 AND backend_pid = pg_backend_pid()', [namespaceId]);
  await sql.count('SELECT pg_advisory_unlock($1, $2::integer)', [ADVISORY_LOCK_CLASS, namespaceId]);
}

/**
 * The live holder of a namespace's lock: the server process granted the advisory lock, joined with the row it wrote.
 * A row left by a killed writer is ignored (its backend no longer holds the lock). Undefined when nobody holds it.
 */
export async function currentHolder(sql: Sql, namespaceId: number): Promise<WriterLockHolder | undefined> {
  const [row] = await sql.rows<{ host: string | null; pid: number | null; started_at: Date | null; backend_pid: number }>(
    `SELECT w.host, w.pid, w.started_at, l.pid AS backend_pid FROM pg_locks l
     LEFT JOIN writer_locks w ON w.namespace_id = $2 AND w.backend_pid = l.pid
     WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1::bigint::oid AND l.objid = $2::bigint::oid AND l.objsubid = 2`,
    [ADVISORY_LOCK_CLASS, namespaceId],
  );
  if (row === undefined) return undefined;
  return {
    host: row.host ?? 'unknown host', pid: row.pid ?? 0,
    startedAt: row.started_at?.toISOString() ?? 'unknown time', backendPid: row.backend_pid,
  };
}

function lockedError(subject: LockSubject, holder: WriterLockHolder | undefined, waitedMs: number): IndexLockedError {
  const who = holder === undefined
    ? 'a writer that just let go (try again)'
    : `host ${holder.host}, pid ${holder.pid}, since ${holder.startedAt} (server process ${holder.backendPid})`;
  const waited = waitedMs > 0 ? ` after waiting ${waitedMs} ms` : '';
  return new IndexLockedError(
    `Another writer is writing ${subject.label}: ${who}${waited}. Wait for it to finish or stop it; readers are not affected.`,
    subject.label,
    holder?.pid ?? 0,
  );
}
