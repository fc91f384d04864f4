import { lstatSync } from 'node:fs';
import { lstat, mkdir, unlink } from 'node:fs/promises';
import { ConfigError } from '../errors.js';

/**
 * Why a socket path must not be used, or null when it may: it must be a socket owned by this user, in a folder of
 * this user's that nobody else may enter when it is the private temp folder. Another user's socket could answer
 * with anything, so a client never talks to one. Always null on Windows (named pipes are not files).
 */
export function socketRefusal(socketPath: string, privateDir: string | null): string | null {
  if (process.platform === 'win32') return null;
  if (privateDir !== null) {
    const refusal = privateDirRefusal(privateDir);
    if (refusal !== null) return refusal;
  }
  const s = lstatSync(socketPath, { throwIfNoEntry: false });
  if (s === undefined) return `no server at ${socketPath}`;
  if (!s.isSocket()) return `${socketPath} is not a socket`;
  if (s.uid !== process.getuid?.()) return `${socketPath} belongs to another user`;
  return null;
}

/**
 * Creates the private temp folder for sockets whose index path is too long (mode 0700).
 * @throws ConfigError when the folder exists but is not this user's private folder (a folder someone else made).
 */
export async function makePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  const refusal = privateDirRefusal(dir);
  if (refusal !== null) throw new ConfigError(`Cannot serve queries: ${refusal}. Remove it, or use a shorter --cache-dir.`, 'cacheDir');
}

/**
 * Removes a socket file nobody listens on any more (left by a killed server).
 * @throws ConfigError when the path is something else than this user's socket (never removed).
 */
export async function removeStaleSocket(socketPath: string): Promise<void> {
  if (process.platform === 'win32') return; // a named pipe goes with its process: nothing is left behind to remove
  const s = await lstat(socketPath).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (s === null) return;
  if (!s.isSocket() || s.uid !== process.getuid?.()) {
    throw new ConfigError(`Cannot serve queries: ${socketPath} exists and is not a socket of this user. Remove it and start again.`, 'cacheDir');
  }
  await unlink(socketPath);
}

function privateDirRefusal(dir: string): string | null {
  const s = lstatSync(dir, { throwIfNoEntry: false });
  if (s === undefined) return `no server (${dir} does not exist)`;
  if (!s.isDirectory() || s.uid !== process.getuid?.() || (s.mode & 0o077) !== 0) return `${dir} is not a private folder of this user`;
  return null;
}
