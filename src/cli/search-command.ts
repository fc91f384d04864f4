import type { CodeIndex } from '../code-index.js';
import { ConfigError } from '../errors.js';
import type { SearchMode } from '../types.js';
import { EXIT_DAMAGED, indexOptions, MAX_SEARCH_K, parseCount, parseFraction, parsePositiveInt, waitingNote, type IndexCliOptions } from './index-commands.js';
import { openedIndex, type IndexAccess } from './index-access.js';
import { eprintln, printJson, println, type CliIO } from './output.js';
import { mergeSplitParts, printFiles, printHits } from './search-hits.js';

const MODES: readonly SearchMode[] = ['vector', 'lexical', 'hybrid'];

/** Options of `codescout search`: what to search and, for people, how much of each hit to show. */
export interface SearchCliOptions extends IndexCliOptions {
  root?: string;
  k?: string;
  mode?: string;
  include?: string[];
  exclude?: string[];
  /** Hide hits less similar to the query than this (0..1). */
  threshold?: string;
  /** More code lines per hit (`-C`). */
  context?: string;
  /** The whole code of each hit (and `text` in the JSON). */
  text?: boolean;
  /** File paths only (`-l`). */
  filesOnly?: boolean;
}

/** `codescout search "<text>"` in-process (see `servedOrInProcess` for the warm path). */
export async function runSearch(io: CliIO, text: string, o: SearchCliOptions): Promise<number> {
  // The include/exclude of a search filter its hits; they are not the index's discovery globs.
  return searchWith(io, text, o, openedIndex(io, indexOptions(o.root, { cacheDir: o.cacheDir, model: o.model, modelDir: o.modelDir, store: o.store, repo: o.repo, ref: o.ref })));
}

/** The search itself, on an index opened for it or held by a server: checks the options, searches, prints. */
export async function searchWith(io: CliIO, text: string, o: SearchCliOptions, access: IndexAccess): Promise<number> {
  const mode = (o.mode ?? 'hybrid') as SearchMode;
  if (!MODES.includes(mode)) throw new ConfigError(`--mode must be one of ${MODES.join(', ')}; got "${o.mode}".`, 'mode');
  const k = parsePositiveInt(o.k ?? '10', '-k', MAX_SEARCH_K);
  const threshold = o.threshold === undefined ? undefined : parseFraction(o.threshold, '--threshold');
  if (threshold !== undefined && mode === 'lexical') {
    throw new ConfigError('--threshold compares the similarity of each hit to the query, which --mode lexical does not compute. Use --mode hybrid or vector.', 'threshold');
  }
  const more = o.context === undefined ? 0 : parseCount(o.context, '-C');
  if (text.trim() === '') throw new ConfigError('The search text is empty. Give a few words, e.g. codescout search "parse config file".', 'text');
  return access(async (index) => {
    // People see the parts of a split symbol as one hit: ask for more so that k hits remain after merging.
    const asked = o.json ? k : Math.min(MAX_SEARCH_K, k * 2);
    const found = await index.search(text, { k: asked, mode, include: o.include, exclude: o.exclude });
    const hits = threshold === undefined ? found : found.filter((h) => h.similarity === undefined || h.similarity >= threshold);
    const notReady = await notReadyWarning(index);
    const waiting = mode === 'lexical' ? null : await waitingNote(index);
    if (waiting !== null) eprintln(io, waiting.note);
    if (o.json) {
      const rows = hits.map(({ path: p, startLine, endLine, symbol, kind, score, similarity, text: code }) => ({
        path: p, startLine, endLine, symbol, kind, score, ...(similarity === undefined ? {} : { similarity }), ...(o.text ? { text: code } : {}),
      }));
      const extra = waiting === null ? {} : { chunksWaiting: waiting.chunksWaiting };
      printJson(io, notReady === null ? { hits: rows, ...extra } : { hits: rows, ...notReady, ...extra });
    } else if (hits.length === 0) {
      const none = found.length > 0 ? `No results with similarity >= ${threshold}.` : 'No results.';
      println(io, notReady?.indexState === 'empty' ? notReady.warning : none);
    } else if (o.filesOnly) {
      printFiles(io, mergeSplitParts(hits).slice(0, k));
    } else {
      printHits(io, mergeSplitParts(hits).slice(0, k), o.text ? 'all' : { more });
    }
    if (notReady?.indexState !== 'reset') return 0;
    // "No match" and "the index lost its content" must never look alike: a reset index exits like a damaged one.
    eprintln(io, `codescout: ${notReady.warning}`);
    return EXIT_DAMAGED;
  });
}

/** The state and a one-line warning of an index with nothing (or not everything) to search; null when ready. */
async function notReadyWarning(index: CodeIndex): Promise<{ indexState: 'empty' | 'reset'; warning: string } | null> {
  const { indexState, resetReason } = await index.state();
  if (indexState === 'ready') return null;
  if (indexState === 'empty') return { indexState, warning: `The index is empty. Run: codescout index ${index.config.root}` };
  return {
    indexState,
    warning: `The index at ${index.indexDir} was reset and is not rebuilt yet, so results are missing (${resetReason}). Run: codescout index ${index.config.root}`,
  };
}
