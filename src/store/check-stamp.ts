import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from './private-files.js';

/** File beside the catalog naming the exact state of the catalog files that last passed `quick_check`. */
export const CHECK_STAMP_FILE = 'catalog.checked';
/** File beside the vector files naming the exact state of the graph and meta whose checksum last matched. */
export const VECTORS_CHECK_STAMP_FILE = 'vectors.checked';

/**
 * Identity of files as they are now: inode, size, mtime and ctime (ns) of each. Any write through the file
 * system changes it (ctime always moves), so a stamp that still matches means nothing has touched the files
 * since. Null when the first file does not exist; a later missing one counts as "-".
 */
export function filesStamp(paths: readonly string[]): string | null {
  const parts: string[] = [];
  for (const [i, path] of paths.entries()) {
    const st = statSync(path, { bigint: true, throwIfNoEntry: false });
    if (st === undefined && i === 0) return null;
    parts.push(st === undefined ? '-' : `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`);
  }
  return parts.join('|');
}

/** The stamp of a catalog database and its -wal. */
export function catalogFileStamp(dbPath: string): string | null {
  return filesStamp([dbPath, `${dbPath}-wal`]);
}

/** True when `stamp` is the state recorded in the stamp file `name` of `dir` by the last passed check. */
export function matchesCheckStamp(dir: string, stamp: string | null, name = CHECK_STAMP_FILE): boolean {
  if (stamp === null) return false;
  try {
    return readFileSync(join(dir, name), 'utf8') === stamp;
  } catch {
    return false;
  }
}

/** Records `stamp` as checked. Best effort: a stamp that cannot be written only means the next open checks again. */
export function recordCheckStamp(dir: string, stamp: string | null, name = CHECK_STAMP_FILE): void {
  if (stamp === null) return;
  const path = join(dir, name);
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, stamp, { mode: PRIVATE_FILE_MODE });
    renameSync(tmp, path);
  } catch {
    // A read-only index folder: nothing to remember, nothing lost.
  }
}
