import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** File beside the catalog naming the exact state of the catalog files that last passed `quick_check`. */
export const CHECK_STAMP_FILE = 'catalog.checked';

/**
 * Identity of the catalog's files as they are now: inode, size, mtime and ctime (ns) of the database and of its
 * -wal. Any write through the file system changes it (ctime always moves), so a stamp that still matches means
 * nothing has touched the files since. Null when the database does not exist.
 */
export function catalogFileStamp(dbPath: string): string | null {
  const parts: string[] = [];
  for (const path of [dbPath, `${dbPath}-wal`]) {
    const st = statSync(path, { bigint: true, throwIfNoEntry: false });
    if (st === undefined && path === dbPath) return null;
    parts.push(st === undefined ? '-' : `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`);
  }
  return parts.join('|');
}

/** True when `stamp` is the state recorded by the last passed check. */
export function matchesCheckStamp(indexDir: string, stamp: string | null): boolean {
  if (stamp === null) return false;
  try {
    return readFileSync(join(indexDir, CHECK_STAMP_FILE), 'utf8') === stamp;
  } catch {
    return false;
  }
}

/** Records `stamp` as checked. Best effort: a stamp that cannot be written only means the next open checks again. */
export function recordCheckStamp(indexDir: string, stamp: string | null): void {
  if (stamp === null) return;
  const path = join(indexDir, CHECK_STAMP_FILE);
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, stamp);
    renameSync(tmp, path);
  } catch {
    // A read-only index folder: nothing to remember, nothing lost.
  }
}
