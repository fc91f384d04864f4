import { existsSync } from 'node:fs';
import path from 'node:path';
import type { OpenIndexOptions } from '../code-index.js';
import { resolveConfig } from '../config.js';
import { ConfigError } from '../errors.js';
import { indexDirFor } from '../indexer/index-location.js';
import { catalogPath } from '../store/catalog-open.js';
import { describeFilters, FILTERS_FILE_NAME, hasOwnGlobs, readStoredFilters, readStoredFiltersIfSound, sameFilters, type IndexFilters } from '../stored-filters.js';


/** The index folder the options name (without opening the index). @throws ConfigError as resolveConfig does. */
export function indexDirOf(options: OpenIndexOptions): string {
  const config = resolveConfig(options);
  return indexDirFor(config.cacheDir, config.root);
}

/**
 * For `watch`, `mcp` and `serve`: the line that says the index keeps to the globs stored with it (openIndex applies
 * them when the command gives none), or null when none are stored.
 */
export function storedFiltersNote(stored: IndexFilters | null): string | null {
  return stored === null ? null : `codescout: indexing with the globs stored with the index by codescout index (${describeFilters(stored)})`;
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
  const given = hasOwnGlobs(options) ? { include: options.include ?? [], exclude: options.exclude ?? [] } : null;
  if (o.reset && given !== null) {
    throw new ConfigError('--reset-filters forgets the globs stored with the index; give it without --include/--exclude (new globs replace the stored ones by themselves).', '--reset-filters');
  }
  const indexDir = indexDirOf(options);
  if (o.reset) {
    if (existsSync(path.join(indexDir, FILTERS_FILE_NAME))) o.note('codescout: forgot the globs stored with the index; codescout.json (if any) decides what is indexed');
    return { options: { ...options, useStoredFilters: false }, toStore: null }; // the file goes after the open
  }
  // New globs replace the stored ones: a damaged file is then only "other globs" (and gets overwritten).
  const stored = given === null ? readStoredFilters(indexDir) : readStoredFiltersIfSound(indexDir);
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
