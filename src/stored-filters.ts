import { readFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { IndexOptions } from './config.js';
import { ConfigError } from './errors.js';

/** File in the index folder that keeps the globs `codescout index` was given on its command line. */
export const FILTERS_FILE_NAME = 'filters.json';

/**
 * The `--include`/`--exclude` globs an index was built with. An empty list means codescout.json's list (or none)
 * applies, as for a flag not given.
 */
export interface IndexFilters {
  readonly include: readonly string[];
  readonly exclude: readonly string[];
}

/**
 * The globs stored with the index at `indexDir`, or null when none are.
 * @throws ConfigError naming the file when it is not a filter list codescout wrote.
 */
export function readStoredFilters(indexDir: string): IndexFilters | null {
  const file = path.join(indexDir, FILTERS_FILE_NAME);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    // No index folder yet, or a cache dir that cannot be one (below a file): openIndex reports that in its own words.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
  const value = parseFilters(text);
  if (value === null) {
    throw new ConfigError(`${file} is not the list of globs codescout index stores. Run: codescout index --reset-filters (then give --include/--exclude again).`, FILTERS_FILE_NAME);
  }
  return value;
}

/** {@link readStoredFilters} for a caller that replaces or ignores them anyway: a damaged file reads as none. */
export function readStoredFiltersIfSound(indexDir: string): IndexFilters | null {
  try {
    return readStoredFilters(indexDir);
  } catch (error) {
    if (error instanceof ConfigError) return null;
    throw error;
  }
}

/** Stores the globs with the index (0600, replaced atomically), or removes them for null. */
export async function storeFilters(indexDir: string, filters: IndexFilters | null): Promise<void> {
  const file = path.join(indexDir, FILTERS_FILE_NAME);
  if (filters === null) {
    await rm(file, { force: true });
    return;
  }
  const temp = `${file}.tmp-${process.pid}`;
  await writeFile(temp, `${JSON.stringify({ include: filters.include, exclude: filters.exclude })}\n`, { mode: 0o600 });
  await rename(temp, file);
}

/** Pure: whether options name globs of their own (either list non-empty), which then win over the stored ones. */
export function hasOwnGlobs(options: Pick<IndexOptions, 'include' | 'exclude'>): boolean {
  return (options.include?.length ?? 0) > 0 || (options.exclude?.length ?? 0) > 0;
}

/**
 * Pure: the options to index with. Globs given in the options win, as a pair, over the stored ones (as on the
 * command line of `codescout index`); without any, the stored pair applies (an empty stored list leaves
 * codescout.json's list in force).
 */
export function applyStoredFilters<O extends IndexOptions>(options: O, stored: IndexFilters | null): O {
  if (stored === null || hasOwnGlobs(options)) return options;
  return { ...options, include: [...stored.include], exclude: [...stored.exclude] };
}

/** Pure: whether two filter sets hold the same globs (order matters not). */
export function sameFilters(a: IndexFilters | null, b: IndexFilters | null): boolean {
  const key = (f: IndexFilters | null): string => (f === null ? '' : JSON.stringify([[...f.include].sort(), [...f.exclude].sort()]));
  return key(a) === key(b);
}

/** Pure: `include src/**, lib/**; exclude src/gen/**` (a list left empty is not named). */
export function describeFilters(f: IndexFilters): string {
  const parts = [f.include.length > 0 ? `include ${f.include.join(', ')}` : '', f.exclude.length > 0 ? `exclude ${f.exclude.join(', ')}` : ''];
  return parts.filter((p) => p !== '').join('; ');
}

function parseFilters(text: string): IndexFilters | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null; // not JSON: the caller names the file and the fix
  }
  return filtersFrom(value);
}

/** Pure: the filter list a parsed value holds, or null when it is not `{ include: string[], exclude: string[] }`. */
export function filtersFrom(value: unknown): IndexFilters | null {
  const globs = (v: unknown): v is string[] => Array.isArray(v) && v.every((g) => typeof g === 'string' && g.trim() !== '');
  if (typeof value !== 'object' || value === null) return null;
  const { include, exclude } = value as Record<string, unknown>;
  return globs(include) && globs(exclude) ? { include, exclude } : null;
}
