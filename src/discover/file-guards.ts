import { realpath, type FileHandle } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import type { SkippedFile, SourceFile } from '../types.js';
import { detectLanguage, extensionOf, needsShebang } from './languages-by-extension.js';
import { openInsideRoot } from './open-regular-file.js';
import { DEFAULT_SECRET_POLICY, type SecretPolicy } from './secret-policy.js';

/** Default size cap of an indexed file, in bytes (1 MiB). */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;
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
  /** Files kept out as secrets (by name and by content); default: every rule, no exception. */
  readonly secrets?: SecretPolicy;
}

/** Reason to skip a file judged by its name alone (a secret, lockfile, `.min.js`, unknown type), or null. */
export function skipReasonForName(relPath: string, secrets: SecretPolicy = DEFAULT_SECRET_POLICY): string | null {
  const secret = secrets.reasonForName(relPath);
  if (secret !== null) return secret;
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

/**
 * Reason a text file is minified or machine-written, or null. The whole file is checked (one indexOf per line):
 * a normal head followed by one huge line would otherwise become thousands of line-window chunks.
 */
function minifiedReason(text: string): string | null {
  let lineStart = 0;
  let lines = 0;
  while (lineStart <= text.length) {
    let end = text.indexOf('\n', lineStart);
    if (end === -1) end = text.length;
    if (end - lineStart > MAX_LINE_CHARS) return `minified (a line over ${MAX_LINE_CHARS} chars)`;
    lines += 1;
    lineStart = end + 1;
  }
  if (text.length > 4096 && text.length / lines > MAX_AVG_LINE_CHARS) {
    return `minified (average line over ${MAX_AVG_LINE_CHARS} chars)`;
  }
  return null;
}

/** Reads the first `bytes` bytes of an open file (fewer when it shrank meanwhile). */
async function readUpTo(handle: FileHandle, bytes: number): Promise<Buffer> {
  const buf = Buffer.alloc(bytes);
  let filled = 0;
  while (filled < bytes) {
    const { bytesRead } = await handle.read(buf, filled, bytes - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buf.subarray(0, filled);
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
 * Applies the content guards to one file: a secret by name, inside the real root and a regular file (never
 * blocking on a FIFO), type by name, size cap (from fstat), NUL byte in the first 8 KiB, shebang for extensionless
 * files, generated marker, minified lines, a secret in the text. Reads the whole file (at most `maxFileBytes`).
 * Never throws: an unreadable or refused file comes back as skipped with the reason.
 */
export async function inspectFile(options: InspectOptions): Promise<InspectResult> {
  const path = options.relPath ?? relative(options.root, options.absPath).split(sep).join('/');
  const skip = (reason: string): InspectResult => ({ skipped: { path, reason } });
  const secrets = options.secrets ?? DEFAULT_SECRET_POLICY;
  const byName = skipReasonForName(path, secrets);
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
    const buf = await readUpTo(handle, stat.size);
    if (hasNul(buf, buf.length)) return skip('binary (NUL byte in the first 8 KiB)');
    const text = buf.toString('utf8');
    const language = detectLanguage(path, firstLines(text, 1));
    if (language === null) return skip('unsupported file type (no extension and no shebang)');
    if (GENERATED_MARKER.test(firstLines(text, GENERATED_MARKER_LINES))) return skip('generated (marker in the header)');
    if (language !== 'markdown' && extensionOf(path) !== 'txt') {
      const minified = minifiedReason(text);
      if (minified !== null) return skip(minified);
    }
    const secret = secrets.reasonForText(path, text);
    if (secret !== null) return skip(secret);
    return { file: { path, absPath: options.absPath, language, sizeBytes: stat.size, mtimeMs: stat.mtimeMs } };
  } catch (error) {
    return skip(`unreadable: ${(error as Error).message}`);
  } finally {
    await handle.close();
  }
}
