import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import path from 'node:path';

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
