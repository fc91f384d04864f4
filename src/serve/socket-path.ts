import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { isWritableLocation } from '../indexer/index-location.js';

/** Name of the query server's socket inside an index folder. */
export const SOCKET_FILE_NAME = 'serve.sock';

/**
 * Longest Unix socket path that binds everywhere, in bytes: `sun_path` holds 108 bytes on Linux and 104 on macOS,
 * the terminating NUL included.
 */
export const MAX_UNIX_SOCKET_PATH_BYTES = 103;

/**
 * Where the socket lives: `<indexDir>/serve.sock`, or, for a path too long to bind or an index folder this user may
 * not write (a read-only index is still served), a private folder in the temp dir.
 */
export interface SocketLocation {
  readonly socketPath: string;
  /** The private folder (mode 0700, this user's) holding a socket that does not fit in the index folder; null otherwise. */
  readonly privateDir: string | null;
}

/**
 * Pure but for the platform's temp dir: the socket (a named pipe on Windows) of the query server of one index.
 * Server and clients compute it alike, so it depends only on the index folder and the user.
 */
export function socketLocation(
  indexDir: string,
  o: { platform?: NodeJS.Platform; tmpDir?: string; uid?: number; indexDirWritable?: boolean } = {},
): SocketLocation {
  const platform = o.platform ?? process.platform;
  const key = createHash('sha256').update(indexDir).digest('hex').slice(0, 24);
  // Named pipes live in their own namespace, not the file system; the hash keeps one pipe per index.
  if (platform === 'win32') return { socketPath: `\\\\.\\pipe\\codescout-${key}`, privateDir: null };
  const inIndex = path.join(indexDir, SOCKET_FILE_NAME);
  if (o.indexDirWritable !== false && Buffer.byteLength(inIndex) <= MAX_UNIX_SOCKET_PATH_BYTES) return { socketPath: inIndex, privateDir: null };
  const privateDir = path.join(o.tmpDir ?? os.tmpdir(), `codescout-${o.uid ?? process.getuid?.() ?? 0}`);
  return { socketPath: path.join(privateDir, `${key}.sock`), privateDir };
}

/** {@link socketLocation} of an index as this process finds it on disk (server and clients alike). */
export function socketLocationOf(indexDir: string): SocketLocation {
  let indexDirWritable = true;
  try {
    indexDirWritable = isWritableLocation(indexDir);
  } catch {
    // No index folder (nothing to serve yet) or an unreadable one: the in-index path, as before.
  }
  return socketLocation(indexDir, { indexDirWritable });
}
