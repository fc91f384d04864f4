import { closeSync, mkdirSync, openSync } from 'node:fs';

// An index holds the text of the code it indexed, so it gets the modes of a private key rather than those of the
// source files: whatever the umask, only the owner reads it. The modes apply when a file or folder is created;
// an index created before keeps its modes.

/** Mode of every file codescout creates in an index folder (owner read/write). */
export const PRIVATE_FILE_MODE = 0o600;
/** Mode of the cache dir and index folders codescout creates (owner only). */
export const PRIVATE_DIR_MODE = 0o700;

/** Creates `dir` and any missing parent with mode 0700; an existing folder is left as it is. Throws the fs error. */
export function makePrivateDirSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Creates `path` empty with mode 0600 when it does not exist, so that a writer that creates files with the default
 * mode (SQLite, hnswlib) finds it and keeps its mode. SQLite gives its -wal and -shm files the database's mode.
 * Throws the fs error.
 */
export function createPrivateFileSync(path: string): void {
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
}
