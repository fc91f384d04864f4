import { CodeIndexError, ConfigError, IndexCorruptError } from '../errors.js';
import { isCorruptionError } from '../store/catalog-open.js';

/** Errno codes of a write refused by permissions or a read-only mount. */
const NOT_WRITABLE = new Set(['EACCES', 'EPERM', 'EROFS']);

/**
 * The typed error a user should see for a SQLite or file-system error whose meaning is known, or null.
 * The library maps the cases it foresees; this is the edge's net for the rest, so that a damaged database
 * (exit 6) or an unwritable location (exit 2) never reads as "unexpected error ... please report it".
 */
export function toKnownError(error: unknown): CodeIndexError | null {
  if (error instanceof CodeIndexError) return error;
  const { code, message, path } = (error ?? {}) as { code?: unknown; message?: unknown; path?: unknown };
  if (typeof code !== 'string') return null;
  const what = typeof message === 'string' ? message : code;
  if (isCorruptionError(error)) {
    return new IndexCorruptError(`The index database is damaged (${what}). Repair it: codescout index --rebuild`, typeof path === 'string' ? path : '', { cause: error });
  }
  if (code.startsWith('SQLITE_READONLY') || NOT_WRITABLE.has(code)) {
    const where = typeof path === 'string' ? ` ${path}` : '';
    return new ConfigError(`Cannot write${where}: ${what}. Pass a writable --cache-dir (or set CODESCOUT_CACHE_DIR).`, 'cacheDir', { cause: error });
  }
  return null;
}
