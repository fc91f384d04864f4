import { closeSync, constants, fstatSync, openSync, readFileSync, readlinkSync, realpathSync, type Stats } from 'node:fs';
import { open, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
import { sep } from 'node:path';
import { ConfigError } from '../errors.js';

// The one way codescout reads a file it did not write: discovery, the watcher, the indexer, `reindex`, chunk text
// at query time, `chunks` and ignore files all come through here. Two rules hold for every read:
//  1. The real path (every symlink resolved) lies inside the real root. A check on the path's text is not enough:
//     `up -> ../..` inside the root makes `up/x` leave it, and lstat follows every link but the last.
//  2. Only regular files are read. open() of a FIFO blocks until a writer appears (forever, holding the write
//     lock and a libuv thread), so files are opened with O_NONBLOCK and the opened handle is checked with fstat.

/**
 * Flags of every read: O_NONBLOCK so a FIFO (or a device) swapped in after the stat never blocks open(), and
 * O_NOFOLLOW because the path opened is already the real path: a link there now was swapped in since.
 * Windows has neither flag (nor FIFOs); 0 leaves them out.
 */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** Why a read was refused: a sentence fragment for `report.skipped`, and the errno code when there was one. */
export interface ReadRefusal {
  readonly reason: string;
  readonly code?: string;
}

/** An open regular file: the caller reads it and must close `handle`. */
export interface OpenedFile {
  readonly handle: FileHandle;
  /** fstat of the opened handle (what is read, not what the path pointed to a moment before). */
  readonly stat: Stats;
  readonly realPath: string;
}

/** A file read whole. */
export interface ReadFile {
  readonly bytes: Buffer;
  readonly stat: Stats;
  readonly realPath: string;
}

/** Options of the root-confined reads. */
export interface InsideRootOptions {
  /** The root with every symlink resolved (see {@link resolveRealRoot}). */
  readonly realRoot: string;
  /** The path to read (absolute, or relative to the working directory). */
  readonly absPath: string;
}

/** True when `realPath` is `realRoot` or below it (both already resolved). */
export function isInsideRoot(realRoot: string, realPath: string): boolean {
  return realPath === realRoot || realPath.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
}

/**
 * The real path of a root folder, every symlink resolved.
 * @throws ConfigError when the root cannot be resolved (missing, unreadable).
 */
export async function resolveRealRoot(root: string): Promise<string> {
  try {
    return await realpath(root);
  } catch (error) {
    throw new ConfigError(`The root ${root} cannot be resolved: ${(error as NodeJS.ErrnoException).code ?? error}. Pass an existing folder.`, 'root', { cause: error });
  }
}

/** Why a stat is not a regular file, or null when it is one. */
export function notRegularReason(s: Stats): string | null {
  if (s.isFile()) return null;
  const kind = s.isFIFO() ? 'FIFO' : s.isSocket() ? 'socket' : s.isCharacterDevice() ? 'character device'
    : s.isBlockDevice() ? 'block device' : s.isDirectory() ? 'directory' : 'unknown kind';
  return `not a regular file (${kind})`;
}

function refusal(error: unknown): ReadRefusal {
  const code = (error as NodeJS.ErrnoException).code;
  return code === undefined ? { reason: `unreadable: ${(error as Error).message}` } : { reason: `unreadable: ${code}`, code };
}

const OUTSIDE: ReadRefusal = { reason: 'symlink resolves outside the root' };

/**
 * Where an open descriptor really points, when the platform says (Linux `/proc/self/fd`); null elsewhere.
 * Closes the race of a directory on the path being swapped for a link between realpath() and open().
 */
async function openedPath(fd: number): Promise<string | null> {
  if (process.platform !== 'linux') return null;
  // No /proc (a sandbox): the realpath check before open() stands alone.
  return readlink(`/proc/self/fd/${fd}`).catch(() => null);
}

function openedPathSync(fd: number): string | null {
  if (process.platform !== 'linux') return null;
  try {
    return readlinkSync(`/proc/self/fd/${fd}`, { encoding: 'utf8' });
  } catch {
    return null; // no /proc (a sandbox): the realpath check before open() stands alone
  }
}

/**
 * Opens a regular file for reading, whatever its location (for `codescout chunks <file>`). Never blocks on a
 * FIFO, socket or device. Never throws: a refusal comes back as `{ refused }`.
 */
export async function openRegularFile(absPath: string): Promise<OpenedFile | { refused: ReadRefusal }> {
  let realPath: string;
  try {
    realPath = await realpath(absPath);
  } catch (error) {
    return { refused: refusal(error) };
  }
  return openReal(realPath, null);
}

/**
 * Opens a regular file whose real path lies inside `realRoot`. Never blocks on a FIFO, socket or device and never
 * follows a link out of the root. Never throws: a refusal (outside the root, not a regular file, unreadable)
 * comes back as `{ refused }` with a reason for `report.skipped`.
 */
export async function openInsideRoot(o: InsideRootOptions): Promise<OpenedFile | { refused: ReadRefusal }> {
  let realPath: string;
  try {
    realPath = await realpath(o.absPath);
  } catch (error) {
    return { refused: refusal(error) };
  }
  if (!isInsideRoot(o.realRoot, realPath)) return { refused: OUTSIDE };
  return openReal(realPath, o.realRoot);
}

async function openReal(realPath: string, realRoot: string | null): Promise<OpenedFile | { refused: ReadRefusal }> {
  try {
    // A stat first: a FIFO or device is refused without ever being opened (opening some devices has effects).
    const byPath = notRegularReason(await stat(realPath));
    if (byPath !== null) return { refused: { reason: byPath } };
  } catch (error) {
    return { refused: refusal(error) };
  }
  let handle: FileHandle;
  try {
    handle = await open(realPath, READ_FLAGS);
  } catch (error) {
    return { refused: refusal(error) };
  }
  try {
    const s = await handle.stat();
    const notRegular = notRegularReason(s);
    if (notRegular !== null) {
      await handle.close();
      return { refused: { reason: notRegular } };
    }
    if (realRoot !== null) {
      const actual = await openedPath(handle.fd);
      if (actual !== null && !isInsideRoot(realRoot, actual)) {
        await handle.close();
        return { refused: OUTSIDE };
      }
    }
    return { handle, stat: s, realPath };
  } catch (error) {
    await handle.close();
    return { refused: refusal(error) };
  }
}

/** Reads a whole regular file inside `realRoot` under the rules of {@link openInsideRoot}. Never throws. */
export async function readInsideRoot(o: InsideRootOptions): Promise<ReadFile | { refused: ReadRefusal }> {
  return readOpened(await openInsideRoot(o));
}

/** Reads a whole regular file anywhere under the rules of {@link openRegularFile}. Never throws. */
export async function readRegularFile(absPath: string): Promise<ReadFile | { refused: ReadRefusal }> {
  return readOpened(await openRegularFile(absPath));
}

async function readOpened(opened: OpenedFile | { refused: ReadRefusal }): Promise<ReadFile | { refused: ReadRefusal }> {
  if ('refused' in opened) return opened;
  try {
    return { bytes: await opened.handle.readFile(), stat: opened.stat, realPath: opened.realPath };
  } catch (error) {
    return { refused: refusal(error) };
  } finally {
    await opened.handle.close();
  }
}

/** Flags of the synchronous read: the path may hold links (checked after the open), so no O_NOFOLLOW. */
const SYNC_READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Synchronous {@link readInsideRoot} as text, for the ignore files the path filter reads in every folder. A
 * blocking read here would stop the whole event loop (no Ctrl-C), hence the same O_NONBLOCK and fstat rule.
 * It opens first and checks where the handle really points afterwards: most ignore files are missing, and
 * realpath() of a path 1,000 folders deep costs a walk per component. Never throws.
 */
export function readTextInsideRootSync(o: InsideRootOptions): string | { refused: ReadRefusal } {
  let fd: number;
  try {
    fd = openSync(o.absPath, SYNC_READ_FLAGS);
  } catch (error) {
    return { refused: refusal(error) };
  }
  try {
    const notRegular = notRegularReason(fstatSync(fd));
    if (notRegular !== null) return { refused: { reason: notRegular } };
    const actual = openedPathSync(fd) ?? realpathSync.native(o.absPath);
    if (!isInsideRoot(o.realRoot, actual)) return { refused: OUTSIDE };
    return readFileSync(fd, 'utf8');
  } catch (error) {
    return { refused: refusal(error) };
  } finally {
    closeSync(fd);
  }
}
