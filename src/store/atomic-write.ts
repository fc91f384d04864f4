import { open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PRIVATE_FILE_MODE } from './private-files.js';

/** Suffix of a temp file that this process writes next to `path` before renaming it into place. */
export function tempPathFor(path: string): string {
  return `${path}.tmp-${process.pid}`;
}

/**
 * Writes `data` to `path` atomically: a temp file beside it, fsync, rename, then fsync of the directory,
 * so a reader sees either the old or the new content, never a torn file.
 * Throws the underlying fs error (ENOSPC, EACCES, ...) after removing the temp file.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const tmp = tempPathFor(path);
  try {
    const handle = await open(tmp, 'w', PRIVATE_FILE_MODE);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await commitTempFile(tmp, path);
  } catch (error) {
    await unlink(tmp).catch(() => undefined); // best effort: the original error is what matters
    throw error;
  }
}

/**
 * Moves an already written temp file into place: fsync of the file, rename over `path`, fsync of the directory.
 * Throws the underlying fs error.
 */
export async function commitTempFile(tmpPath: string, path: string): Promise<void> {
  const handle = await open(tmpPath, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmpPath, path);
  await syncDirectory(dirname(path));
}

/** Makes a rename durable by fsyncing its directory; a no-op where directories cannot be opened (Windows). */
async function syncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
  } catch (error) {
    // Windows cannot open a directory; its rename is durable without this step.
    if (isErrno(error, 'EISDIR') || isErrno(error, 'EPERM') || isErrno(error, 'EACCES')) return;
    throw error;
  }
  try {
    await handle.sync();
  } catch (error) {
    // Some filesystems (and Windows) reject fsync on a directory; the data itself is already synced.
    if (!isErrno(error, 'EINVAL') && !isErrno(error, 'EPERM') && !isErrno(error, 'EBADF')) throw error;
  } finally {
    await handle.close();
  }
}

/** True when `error` is a Node system error with the given `code` (e.g. `ENOENT`). */
export function isErrno(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
