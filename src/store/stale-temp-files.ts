import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { isErrno } from './atomic-write.js';

/**
 * Names of the temp files writers leave beside their target while writing, with the writer's pid: the graph and
 * meta saves and check stamps (`vectors.hnsw.tmp-<pid>`, see atomic-write.ts) and the lock's own files
 * (`write.lock.<pid>.<token>`, `write.lock.break.<pid>.<token>-break`, see write-lock.ts; and
 * `write.lock.stale-<pid>-<token>` of earlier versions).
 */
const TEMP_NAME = /^(?:.+\.tmp-(\d+)|write\.lock\.(\d+)\.[0-9a-f]+|write\.lock\.stale-(\d+)-[0-9a-f]+|write\.lock\.break\.(\d+)\.[0-9a-f]+-break)$/;

/** True when no process with this pid runs on this host (EPERM: it runs, as another user). */
function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return isErrno(error, 'ESRCH');
  }
}

/**
 * Deletes the temp files that writers killed mid-save left in `indexDir` (a 100 MB graph each, never reused).
 * A file whose writer still runs is kept: this process's own (a background save may be in flight) and any other
 * live pid's. Call it holding the write lock. Returns the names removed. Throws fs errors other than ENOENT.
 */
export async function removeStaleTempFiles(indexDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(indexDir);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return [];
    throw error;
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = TEMP_NAME.exec(name);
    if (m === null) continue;
    const pid = Number(m[1] ?? m[2] ?? m[3] ?? m[4]);
    if (pid === process.pid || !isGone(pid)) continue;
    try {
      await unlink(join(indexDir, name));
      removed.push(name);
    } catch (error) {
      if (!isErrno(error, 'ENOENT')) throw error; // ENOENT: another cleaner was first
    }
  }
  return removed;
}
