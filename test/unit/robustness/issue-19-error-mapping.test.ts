import { describe, expect, it } from 'vitest';
import { toKnownError } from '../../../src/cli/known-errors.js';
import { ConfigError, IndexCorruptError, IndexLockedError } from '../../../src/errors.js';

// Issue 19: errors with a known meaning reach the user as one line with the right exit code, never as
// "unexpected error ... please report it" (exit 1).

const errno = (code: string, path?: string): NodeJS.ErrnoException => Object.assign(new Error(`${code}: refused`), { code, path });

describe('toKnownError (the CLI edge)', () => {
  it.each(['EROFS', 'EACCES', 'EPERM'])('%s on a write is bad usage (exit 2) naming the path and --cache-dir', (code) => {
    const mapped = toKnownError(errno(code, '/ro/cache/repo-1/vectors.hnsw'));
    expect(mapped).toBeInstanceOf(ConfigError);
    expect(mapped?.exitCode).toBe(2);
    expect(mapped?.message).toBe(`Cannot write /ro/cache/repo-1/vectors.hnsw: ${code}: refused. Pass a writable --cache-dir (or set CODESCOUT_CACHE_DIR).`);
  });

  it('a SQLite read-only error is exit 2, SQLite corruption is exit 6 with the repair that works', () => {
    const readonly = Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' });
    expect(toKnownError(readonly)?.exitCode).toBe(2);
    const corrupt = Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT_INDEX' });
    const mapped = toKnownError(corrupt);
    expect(mapped).toBeInstanceOf(IndexCorruptError);
    expect(mapped?.exitCode).toBe(6);
    expect(mapped?.message).toBe('The index database is damaged (database disk image is malformed). Repair it: codescout index --rebuild');
  });

  it('keeps typed errors and leaves the truly unexpected alone', () => {
    const locked = new IndexLockedError('locked', '/x/write.lock', 1);
    expect(toKnownError(locked)).toBe(locked);
    expect(toKnownError(new Error('boom'))).toBeNull();
    expect(toKnownError(errno('ENOSPC'))).toBeNull();
    expect(toKnownError(undefined)).toBeNull();
  });
});
