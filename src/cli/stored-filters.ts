import { existsSync, readFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { OpenIndexOptions } from '../code-index.js';
import { resolveConfig } from '../config.js';
import { ConfigError } from '../errors.js';
import { indexDirFor } from '../indexer/index-location.js';
import { catalogPath } from '../store/catalog-open.js';

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

/** The index folder the options name (without opening the index). @throws ConfigError as resolveConfig does. */
export function indexDirOf(options: OpenIndexOptions): string {
  const config = resolveConfig(options);
  return indexDirFor(config.cacheDir, config.root);
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

/**
 * For `watch` and `mcp`: the options with the globs stored with the index, so that they index what `index` was
 * told to (a later command without globs must not silently index everything again). Tells `note` when it applies them.
 */
export function withStoredFilters(options: OpenIndexOptions, note: (line: string) => void): OpenIndexOptions {
  const stored = readStoredFilters(indexDirOf(options));
  if (stored === null) return options;
  note(`codescout: indexing with the globs stored with the index by codescout index (${describeFilters(stored)})`);
  return { ...options, include: [...stored.include], exclude: [...stored.exclude] };
}

/** What `codescout index` indexes with, and what it then stores with the index (undefined: leave what is stored). */
export interface IndexRunFilters {
  readonly options: OpenIndexOptions;
  readonly toStore: IndexFilters | null | undefined;
}

/**
 * For `codescout index`: globs given on the command line replace the stored ones (saying so when the index was
 * built with others: the pass removes the files they leave out and indexes those they bring in); without any, the
 * stored ones apply (said in one line); `reset` forgets them.
 * @throws ConfigError for `reset` together with globs, or a stored file that is not a glob list.
 */
export function filtersForIndexRun(options: OpenIndexOptions, o: { reset: boolean; note: (line: string) => void }): IndexRunFilters {
  const given = options.include?.length || options.exclude?.length ? { include: options.include ?? [], exclude: options.exclude ?? [] } : null;
  if (o.reset && given !== null) {
    throw new ConfigError('--reset-filters forgets the globs stored with the index; give it without --include/--exclude (new globs replace the stored ones by themselves).', '--reset-filters');
  }
  const indexDir = indexDirOf(options);
  if (o.reset) {
    if (existsSync(path.join(indexDir, FILTERS_FILE_NAME))) o.note('codescout: forgot the globs stored with the index; codescout.json (if any) decides what is indexed');
    return { options, toStore: null };
  }
  const stored = readStoredFilters(indexDir);
  if (given === null) {
    if (stored === null) return { options, toStore: undefined };
    o.note(`codescout: indexing with the globs stored with the index (${describeFilters(stored)}); --include/--exclude replace them, --reset-filters forgets them`);
    return { options: { ...options, include: [...stored.include], exclude: [...stored.exclude] }, toStore: undefined };
  }
  if (!sameFilters(stored, given) && existsSync(catalogPath(indexDir))) {
    const before = stored === null ? 'without --include/--exclude' : `with ${describeFilters(stored)}`;
    o.note(`codescout: the index was built ${before}; re-indexing with ${describeFilters(given)}: files these globs leave out are removed, files they bring in are indexed`);
  }
  return { options, toStore: given };
}

function parseFilters(text: string): IndexFilters | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null; // not JSON: the caller names the file and the fix
  }
  const globs = (v: unknown): v is string[] => Array.isArray(v) && v.every((g) => typeof g === 'string' && g.trim() !== '');
  if (typeof value !== 'object' || value === null) return null;
  const { include, exclude } = value as Record<string, unknown>;
  return globs(include) && globs(exclude) ? { include, exclude } : null;
}
