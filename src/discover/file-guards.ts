import { realpath } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import type { SkippedFile, SourceFile } from '../types.js';
import { detectLanguage, extensionOf, needsShebang } from './languages-by-extension.js';
import { openInsideRoot } from './open-regular-file.js';

/** Default size cap of an indexed file, in bytes (1 MiB). */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;
/** Bytes read from the head of a file to sniff binary, minified and generated content. */
const SNIFF_BYTES = 64 * 1024;
/** Bytes searched for a NUL byte (the binary test git uses). */
const BINARY_SNIFF_BYTES = 8 * 1024;
/** A line longer than this (chars) marks a file as minified or machine-written. */
const MAX_LINE_CHARS = 1000;
/** Average line length (chars) above which a file counts as minified. */
const MAX_AVG_LINE_CHARS = 250;
/** Lines searched for a generated-code marker. */
const GENERATED_MARKER_LINES = 10;

const LOCKFILE_NAMES: ReadonlySet<string> = new Set([
  'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lockb', 'bun.lock',
  'go.sum', 'composer.lock', 'cargo.lock', 'gemfile.lock', 'poetry.lock', 'pipfile.lock',
]);
// Split so that this file does not carry the marker in its own head.
const GENERATED_MARKER = new RegExp('@' + 'generated\\b|^\\s*(//|#)\\s*Code generated .* DO NOT EDIT', 'm');

/** What `inspectFile` found: an indexable file or a reason to skip it. */
export type InspectResult = { readonly file: SourceFile } | { readonly skipped: SkippedFile };

/** Options of `inspectFile`. */
export interface InspectOptions {
  /** Absolute root the relative path is computed from. */
  readonly root: string;
  /** `root` with every symlink resolved; resolved here when absent (one realpath call). */
  readonly realRoot?: string;
  readonly absPath: string;
  /** Relative POSIX path if the caller already knows it. */
  readonly relPath?: string;
  /** Size cap in bytes; default 1 MiB. */
  readonly maxFileBytes?: number;
}

/** Reason to skip a file judged by its name alone (lockfile, `.min.js`, unknown type), or null. */
export function skipReasonForName(relPath: string): string | null {
  const name = relPath.slice(relPath.lastIndexOf('/') + 1).toLowerCase();
  if (LOCKFILE_NAMES.has(name) || extensionOf(name) === 'lock') return 'lockfile';
  if (/\.min\.(m?js|cjs|css)$/.test(name)) return 'minified (.min file name)';
  if (detectLanguage(relPath) === null && !needsShebang(relPath)) {
    const ext = extensionOf(relPath);
    return ext === '' ? 'unsupported file type (no extension)' : `unsupported file type (.${ext})`;
  }
  return null;
}

function hasNul(buf: Buffer, length: number): boolean {
  return buf.subarray(0, Math.min(length, BINARY_SNIFF_BYTES)).includes(0);
}

/** Reason the sniffed head of a text file shows minified code, or null. */
function minifiedReason(head: string): string | null {
  let lineStart = 0;
  let lines = 0;
  while (lineStart <= head.length) {
    let end = head.indexOf('\n', lineStart);
    if (end === -1) end = head.length;
    if (end - lineStart > MAX_LINE_CHARS) return `minified (a line over ${MAX_LINE_CHARS} chars)`;
    lines += 1;
    lineStart = end + 1;
  }
  if (head.length > 4096 && head.length / lines > MAX_AVG_LINE_CHARS) {
    return `minified (average line over ${MAX_AVG_LINE_CHARS} chars)`;
  }
  return null;
}

function firstLines(text: string, count: number): string {
  let end = -1;
  for (let i = 0; i < count; i += 1) {
    end = text.indexOf('\n', end + 1);
    if (end === -1) return text;
  }
  return text.slice(0, end);
}

/**
 * Applies the content guards to one file: inside the real root and a regular file (never blocking on a FIFO),
 * type by name, size cap (from fstat), NUL byte in the first 8 KiB, shebang for extensionless files, generated
 * marker, minified lines. Reads at most 64 KiB.
 * Never throws: an unreadable or refused file comes back as skipped with the reason.
 */
export async function inspectFile(options: InspectOptions): Promise<InspectResult> {
  const path = options.relPath ?? relative(options.root, options.absPath).split(sep).join('/');
  const skip = (reason: string): InspectResult => ({ skipped: { path, reason } });
  const byName = skipReasonForName(path);
  if (byName !== null) return skip(byName);
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  let realRoot = options.realRoot;
  try {
    realRoot ??= await realpath(options.root);
  } catch (error) {
    return skip(`unreadable: the root cannot be resolved (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  const opened = await openInsideRoot({ realRoot, absPath: options.absPath });
  if ('refused' in opened) return skip(opened.refused.reason);
  const { handle, stat } = opened;
  try {
    if (stat.size > maxFileBytes) return skip(`too large (${stat.size} bytes > ${maxFileBytes})`);
    const buf = Buffer.alloc(Math.min(stat.size, SNIFF_BYTES));
    const { bytesRead } = buf.length === 0 ? { bytesRead: 0 } : await handle.read(buf, 0, buf.length, 0);
    if (hasNul(buf, bytesRead)) return skip('binary (NUL byte in the first 8 KiB)');
    const head = buf.toString('utf8', 0, bytesRead);
    const firstLine = firstLines(head, 1);
    const language = detectLanguage(path, firstLine);
    if (language === null) return skip('unsupported file type (no extension and no shebang)');
    if (GENERATED_MARKER.test(firstLines(head, GENERATED_MARKER_LINES))) return skip('generated (marker in the header)');
    if (language !== 'markdown' && extensionOf(path) !== 'txt') {
      const minified = minifiedReason(head);
      if (minified !== null) return skip(minified);
    }
    return { file: { path, absPath: options.absPath, language, sizeBytes: stat.size, mtimeMs: stat.mtimeMs } };
  } catch (error) {
    return skip(`unreadable: ${(error as Error).message}`);
  } finally {
    await handle.close();
  }
}
