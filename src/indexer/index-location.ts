import { createHash } from 'node:crypto';
import { accessSync, constants, realpathSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors.js';
import { catalogPath } from '../store/catalog-open.js';

/**
 * The folder of one root's index inside a cache dir: a readable name plus a short hash of the real root path,
 * so two roots with the same base name never share an index.
 */
export function indexDirFor(cacheDir: string, root: string): string {
  let real = root;
  try {
    real = realpathSync(root);
  } catch {
    // A root that cannot be resolved is reported by resolveConfig; here the plain path is a fine key.
  }
  const base = path.basename(real).replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 40) || 'root';
  const hash = createHash('sha256').update(real).digest('hex').slice(0, 10);
  return path.join(cacheDir, `${base}-${hash}`);
}

/** Errno codes that mean "this process may not write here" (permissions, a read-only mount). */
const NOT_WRITABLE = new Set(['EACCES', 'EPERM', 'EROFS']);

/**
 * True when this process may write the index folder (an existing folder) and its catalog (when there is one).
 * False for a read-only mount or missing permissions; other fs errors are thrown.
 */
export function isWritableLocation(indexDir: string): boolean {
  for (const target of [indexDir, catalogPath(indexDir)]) {
    try {
      accessSync(target, constants.W_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (code === 'ENOENT' && target !== indexDir) continue; // no catalog yet: created in a writable folder
      if (NOT_WRITABLE.has(code)) return false;
      throw error;
    }
  }
  return true;
}

/** The one-line error for a write to an index in a read-only location (CLI exit 2). */
export function readonlyLocationError(indexDir: string, action: string): ConfigError {
  return new ConfigError(
    `Cannot ${action}: the index at ${indexDir} is read-only here (it can be searched, not written). ` +
      'Pass a writable --cache-dir (or set CODESCOUT_CACHE_DIR).',
    'cacheDir',
  );
}
