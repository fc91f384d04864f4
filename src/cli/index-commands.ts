import path from 'node:path';
import { MultiLanguageChunker } from '../chunk/multi-language-chunker.js';
import { openIndex, type CodeIndex, type OpenIndexOptions } from '../code-index.js';
import { resolveModelSpec } from '../config.js';
import { decodeSource } from '../chunk/decode-source.js';
import { detectLanguage } from '../discover/index.js';
import { readRegularFile } from '../discover/open-regular-file.js';
import { ConfigError } from '../errors.js';
import { eprintln, printJson, println, type CliIO } from './output.js';
import { createProgressReporter } from './progress.js';
import { describeFilters, type IndexFilters } from '../stored-filters.js';
import { filtersForIndexRun } from './stored-filters.js';

/** Options shared by every command that opens an index. */
export interface IndexCliOptions {
  cacheDir?: string;
  model?: string;
  modelDir?: string;
  json?: boolean;
  /** `--store postgres://...`: the shared store (env CODESCOUT_STORE, `store` in codescout.json). */
  store?: string;
  /** `--repo`/`--ref`: the namespace in the shared store (default: from the git checkout). */
  repo?: string;
  ref?: string;
  /** `--base-ref`: index this namespace as a branch of that one (only the files that differ are stored). */
  baseRef?: string;
}

/** Maps CLI options to openIndex options. */
export function indexOptions(root: string | undefined, o: IndexCliOptions & { include?: string[]; exclude?: string[] }): OpenIndexOptions {
  return {
    root: root ?? '.', cacheDir: o.cacheDir, model: o.model, modelDir: o.modelDir, include: o.include, exclude: o.exclude,
    store: o.store, repo: o.repo, ref: o.ref, baseRef: o.baseRef,
  };
}

/** Exit code of `status --verify` when it finds problems (the README's "index is damaged"). */
export const EXIT_DAMAGED = 6;

/** Prints what opening (or writing) the index repaired (a damaged database moved aside, vectors rebuilt) to stderr, from note `from` on. */
export function printNotes(io: CliIO, index: CodeIndex, from = 0): void {
  for (const note of index.notes.slice(from)) eprintln(io, `codescout: ${note}`);
}

/**
 * `codescout index [root]`. SIGINT/SIGTERM abort the pass between files (exit 130); every file committed
 * before that stays in the index.
 */
export async function runIndex(
  io: CliIO,
  root: string | undefined,
  o: IndexCliOptions & { rebuild?: boolean; include?: string[]; exclude?: string[]; progress?: boolean; resetFilters?: boolean; lockWait?: string },
): Promise<number> {
  const lockWaitMs = o.lockWait === undefined ? undefined : secondsToMs(o.lockWait, '--lock-wait');
  const filters = filtersForIndexRun(indexOptions(root, o), { reset: o.resetFilters === true, note: (line) => eprintln(io, line) });
  const progress = createProgressReporter(io, !o.json && o.progress !== false);
  // The writer of a shared store: `index` is the command that writes one (search, query and status read).
  const index = await openIndex({ ...filters.options, rebuild: o.rebuild, onProgress: progress.listener, storeRole: 'writer', lockWaitMs });
  if (filters.toStore !== undefined) {
    try {
      // Before the pass: an interrupted pass is finished by the next watch or index with these globs, not the old ones.
      await index.storeFilters(filters.toStore);
    } catch (error) {
      await index.close();
      throw error;
    }
  }
  const abort = new AbortController();
  const stop = (): void => abort.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    printNotes(io, index);
    const printed = index.notes.length;
    const report = await index.update({ onProgress: progress.listener, signal: abort.signal });
    progress.stop();
    printNotes(io, index, printed); // damage met while writing: moved aside and rebuilt in this pass
    if (o.json) {
      const { root: r, files, chunks, embedded, reused, removed, seconds } = report;
      printJson(io, { root: r, files, chunks, embedded, reused, removed, skipped: report.skipped.length, seconds });
    } else {
      println(io, `indexed ${report.files} files, ${report.chunks} chunks (${report.embedded} embedded, ${report.reused} reused, ${report.removed} files removed, ${report.skipped.length} skipped) in ${report.seconds.toFixed(1)}s`);
      println(io, `index: ${index.indexDir}`);
    }
    return 0;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    progress.stop();
    await index.close();
  }
}

/** `codescout status [root] [--verify]`: with --verify, runs every consistency check and exits 6 on a problem. */
export async function runStatus(io: CliIO, root: string | undefined, o: IndexCliOptions & { verify?: boolean }): Promise<number> {
  const index = await openIndex(indexOptions(root, o));
  try {
    printNotes(io, index);
    const s = await index.stats();
    const problems = o.verify ? await index.verify() : undefined;
    const status = { ...s, storedFilters: index.storedFilters };
    if (o.json) printJson(io, problems === undefined ? status : { ...status, problems });
    else {
      println(io, `root:     ${s.root}`);
      println(io, `index:    ${s.indexDir}`);
      println(io, `model:    ${s.model ?? '(none yet)'}${s.dimension ? ` (${s.dimension}d)` : ''}`);
      println(io, `files:    ${s.files}`);
      println(io, `chunks:   ${s.chunks} (${s.vectors} vectors, ${s.cachedVectors} cached embeddings)`);
      if (s.chunksWaiting > 0) println(io, `waiting:  ${s.chunksWaiting} chunks not embedded yet (found by their words until then; codescout index finishes them)`);
      println(io, `on disk:  ${(s.bytesOnDisk / 1024 / 1024).toFixed(1)} MiB`);
      println(io, `updated:  ${s.updatedAt ?? 'never'}`);
      println(io, `state:    ${s.indexState}${s.resetReason === null ? '' : ` (${s.resetReason})`}`);
      println(io, `globs:    ${globsLine(index.storedFilters)}`);
      if (problems !== undefined) println(io, `verify:   ${problems.length === 0 ? 'ok' : `${problems.length} problem(s)`}`);
      for (const p of problems ?? []) println(io, `  - ${p}`);
    }
    if (problems === undefined || problems.length === 0) return 0;
    // --rebuild repairs everything verify reports (see rebuild-catalog.ts), but only where it may write.
    if (index.isReadonly) {
      eprintln(io, `codescout: the index at ${s.indexDir} failed verification, and that location is read-only. Rebuild it in a writable one: codescout index ${s.root} --rebuild --cache-dir <writable folder>`);
    } else {
      eprintln(io, `codescout: the index at ${s.indexDir} failed verification. Rebuild it: codescout index ${s.root} --rebuild`);
    }
    return EXIT_DAMAGED;
  } finally {
    await index.close();
  }
}

/** The status line of the globs stored with the index (those of `codescout index --include/--exclude`). */
function globsLine(stored: IndexFilters | null): string {
  if (stored === null) return 'none stored (codescout.json, if any, decides what is indexed)';
  return `${describeFilters(stored)} (stored by codescout index; --include/--exclude replace them, --reset-filters forgets them)`;
}

/** A note for people while chunks wait for their vectors (a build in progress or interrupted); null when none wait. */
export async function waitingNote(index: CodeIndex): Promise<{ chunksWaiting: number; note: string } | null> {
  const chunksWaiting = await index.chunksWaiting();
  if (chunksWaiting === 0) return null;
  const { chunks } = await index.stats();
  return {
    chunksWaiting,
    note: `note: ${chunksWaiting} of ${chunks} chunks are not embedded yet (the index is being built, or a build was stopped: codescout index finishes it); they are found by their words only until then.`,
  };
}

/** `codescout chunks <file>`: the chunk records of one file (a debugging aid). @throws ConfigError for a file that is missing or not a regular file. */
export async function runChunks(io: CliIO, file: string, o: { json?: boolean; text?: boolean; model?: string }): Promise<number> {
  // Opened without blocking and checked with fstat: a FIFO, socket or device is refused instead of hanging.
  const read = await readRegularFile(file);
  if ('refused' in read) {
    const reason = read.refused.code ?? read.refused.reason;
    throw new ConfigError(`Cannot read ${JSON.stringify(file)}: ${reason}. Pass an existing regular source file.`, 'file');
  }
  const content = decodeSource(read.bytes);
  const rel = path.relative(process.cwd(), path.resolve(file)).split(path.sep).join('/');
  const language = detectLanguage(rel, content.slice(0, 200).split('\n')[0]) ?? 'text';
  const chunker = new MultiLanguageChunker({ maxTokens: resolveModelSpec(o.model ?? 'all-MiniLM-L6-v2').maxTokens });
  await chunker.prepare([language]);
  const { chunks, warnings } = chunker.chunk({ path: rel, language, content });
  for (const w of warnings) eprintln(io, `warning: ${w}`);
  if (o.json) {
    printJson(io, chunks.map(({ embedText, ...rest }) => (o.text ? { ...rest, embedText } : rest)));
  } else {
    for (const c of chunks) {
      const part = c.part ? ` (part ${c.part.index}/${c.part.count})` : '';
      println(io, `${String(c.startLine).padStart(5)}-${String(c.endLine).padEnd(5)} ${c.kind.padEnd(9)} ${c.parent ? `${c.parent}.` : ''}${c.symbol}${part}`);
      if (o.text) for (const line of c.embedText.split(/\r?\n/)) println(io, `      | ${line}`);
    }
  }
  return 0;
}

/** Parses a number from 0 to 1 written in decimal (`0.3`, `.3`, `1`). @throws ConfigError naming the option. */
export function parseFraction(value: string, option: string): number {
  const n = /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(value) ? Number(value) : NaN;
  if (!(n >= 0 && n <= 1)) throw new ConfigError(`${option} must be a number from 0 to 1 (a similarity, e.g. 0.3); got "${value}".`, option);
  return n;
}

/** Parses a whole number from 0 to 1000 written in decimal digits. @throws ConfigError naming the option. */
export function parseCount(value: string, option: string): number {
  const n = /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!(n >= 0 && n <= 1000)) throw new ConfigError(`${option} must be a whole number from 0 to 1000; got "${value}".`, option);
  return n;
}

/** Most results `search -k` returns: more is a scan of the index, not a search. */
export const MAX_SEARCH_K = 1000;

/**
 * Parses a positive whole number written in decimal digits (not `1e3`, `0x10` or `1.0`), at most `max`.
 * @throws ConfigError naming the option.
 */
export function parsePositiveInt(value: string, option: string, max = Number.MAX_SAFE_INTEGER): number {
  const n = /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0 || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? 'a positive whole number' : `a whole number from 1 to ${max}`;
    throw new ConfigError(`${option} must be ${range}; got "${value}".`, option);
  }
  return n;
}

/** Whole or fractional seconds from a flag, in ms. @throws ConfigError naming the flag for anything else. */
function secondsToMs(value: string, flag: string): number {
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds < 0) {
    throw new ConfigError(`${flag} takes a number of seconds (0 or more), not "${value}".`, flag);
  }
  return Math.round(seconds * 1000);
}
