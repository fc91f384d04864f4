import picomatch from 'picomatch';
import { ConfigError } from '../errors.js';

/** A path predicate built from include/exclude globs: included by one include (or none given) and no exclude. */
export type PathPredicate = (path: string) => boolean;

/**
 * Compiles include/exclude globs (picomatch syntax over relative POSIX paths) into one predicate.
 * A bare directory such as `src/net` also matches everything below it.
 * @throws ConfigError naming the option and the glob when one is malformed.
 */
export function compilePathGlobs(include: readonly string[] = [], exclude: readonly string[] = []): PathPredicate | undefined {
  if (include.length === 0 && exclude.length === 0) return undefined;
  const inc = include.map((g) => compileOne(g, 'include'));
  const exc = exclude.map((g) => compileOne(g, 'exclude'));
  return (path) => (inc.length === 0 || inc.some((m) => m(path))) && !exc.some((m) => m(path));
}

/** Compiled globs by text: the loop compiles the same excludes (file paths) every cycle. */
const compiled = new Map<string, (path: string) => boolean>();
const MAX_COMPILED = 5000;

function compileOne(glob: string, option: string): (path: string) => boolean {
  const cached = compiled.get(glob);
  if (cached) return cached;
  const matcher = compileUncached(glob, option);
  if (compiled.size >= MAX_COMPILED) compiled.clear();
  compiled.set(glob, matcher);
  return matcher;
}

function compileUncached(glob: string, option: string): (path: string) => boolean {
  const trimmed = glob.trim().replace(/^\.\//, '');
  if (trimmed === '') throw new ConfigError(`An empty ${option} glob was given. Remove it or give a pattern like "src/**".`, option);
  try {
    picomatch.makeRe(trimmed, { dot: true, strictBrackets: true });
    const file = picomatch(trimmed, { dot: true });
    const below = picomatch(`${trimmed.replace(/\/+$/, '')}/**`, { dot: true });
    return (path) => file(path) || below(path);
  } catch (error) {
    throw new ConfigError(`The ${option} glob "${glob}" is malformed: ${(error as Error).message}. Fix or remove it.`, option, { cause: error });
  }
}
