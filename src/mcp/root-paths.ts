import path from 'node:path';
import { ConfigError } from '../errors.js';

/**
 * Turns a path from a tool argument into a root-relative POSIX path. Relative paths are taken from the root;
 * absolute ones must lie inside it. Nothing outside the root is ever read or indexed.
 * @throws ConfigError naming the field and the path when it leaves the root or is empty.
 */
export function toRootRelative(root: string, given: string, field: string): string {
  const trimmed = given.trim();
  if (trimmed === '') throw new ConfigError(`${field}: an empty path was given. Give a path relative to the root, e.g. "src/app.ts".`, field);
  const abs = path.resolve(root, trimmed);
  const rel = path.relative(root, abs);
  if (rel === '' || rel === '.') return '.';
  if (rel.startsWith('..') || path.isAbsolute(rel)) {
    throw new ConfigError(`${field}: "${given}" is outside the indexed root ${root}. Give a path relative to the root, e.g. "src/app.ts".`, field);
  }
  return rel.split(path.sep).join('/');
}

/**
 * Checks globs from a tool argument: relative POSIX globs below the root. An absolute glob inside the root is made
 * relative; one outside it, or one with a `..` segment, is refused rather than silently matching nothing.
 * @throws ConfigError naming the field and the glob.
 */
export function checkGlobs(root: string, globs: readonly string[] | undefined, field: string): string[] | undefined {
  if (globs === undefined) return undefined;
  return globs.map((glob) => {
    let g = glob.trim();
    const posixRoot = root.split(path.sep).join('/');
    if (g.startsWith(posixRoot + '/')) g = g.slice(posixRoot.length + 1);
    if (g.startsWith('/') || /^[a-zA-Z]:\//.test(g) || g.split('/').includes('..')) {
      throw new ConfigError(`${field}: the glob "${glob}" points outside the indexed root ${root}. Use a glob relative to the root, e.g. "src/**".`, field);
    }
    return g;
  });
}
