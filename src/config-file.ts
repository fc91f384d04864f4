import path from 'node:path';
import picomatch from 'picomatch';
import { readTextInsideRootSync } from './discover/open-regular-file.js';
import { ConfigError } from './errors.js';

/** File name of the per-repository settings, read from the root. */
export const CONFIG_FILE_NAME = 'codescout.json';

/** What `codescout.json` may set. */
export interface ConfigFileSettings {
  /** The file read, or null when the root has none. */
  readonly file: string | null;
  /** Globs of files indexed even though the secret policy would skip them. */
  readonly secretsAllow: readonly string[];
  /** Only paths matching these globs are indexed (empty: everything). */
  readonly include: readonly string[];
  /** Paths matching these globs are left out. */
  readonly exclude: readonly string[];
  /** The embedding model id, when the file names one. */
  readonly model: string | undefined;
  /** Where indexes live (absolute; a relative path in the file is relative to the root), when the file names it. */
  readonly cacheDir: string | undefined;
  /** The store the index lives in (a `postgres://` connection string), when the file names one. */
  readonly store: string | undefined;
}

const NONE = { secretsAllow: [], include: [], exclude: [], model: undefined, cacheDir: undefined, store: undefined } as const;

/** Keys `codescout.json` knows, per object; anything else is refused so that a typo never silently does nothing. */
const KNOWN_KEYS = { top: new Set(['$schema', 'include', 'exclude', 'model', 'cacheDir', 'secrets', 'store']), secrets: new Set(['allow']) } as const;

/**
 * Reads `codescout.json` at the root (under the read rule: a regular file inside the real root). A missing file
 * means no settings.
 * @throws ConfigError naming the file and the key for bad JSON, an unknown key, a value of the wrong type, or a
 * malformed glob, and naming the file when it exists but cannot be read.
 * @example
 * // codescout.json: { "include": ["src/**"], "exclude": ["src/generated/**"], "model": "bge-small-en-v1.5",
 * //                   "cacheDir": "../indexes", "secrets": { "allow": ["test/fixtures/**"] } }
 * readConfigFile('/repo', '/repo').secretsAllow; // ['test/fixtures/**']
 */
export function readConfigFile(root: string, realRoot: string): ConfigFileSettings {
  const file = path.join(root, CONFIG_FILE_NAME);
  const text = readTextInsideRootSync({ realRoot, absPath: file });
  if (typeof text !== 'string') {
    if (text.refused.code === 'ENOENT') return { file: null, ...NONE };
    throw new ConfigError(`Cannot read ${file}: ${text.refused.reason}. Make it a regular file inside the root, or remove it.`, CONFIG_FILE_NAME);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file} is not valid JSON (${(error as Error).message}). Fix it, e.g. { "secrets": { "allow": ["test/fixtures/**"] } }.`, CONFIG_FILE_NAME, { cause: error });
  }
  const top = objectAt(value, file, '(top level)');
  checkKeys(top, KNOWN_KEYS.top, file, '');
  const settings = {
    file,
    include: globsAt(top.include, file, 'include'),
    exclude: globsAt(top.exclude, file, 'exclude'),
    model: stringAt(top.model, file, 'model'),
    cacheDir: ((dir) => (dir === undefined ? undefined : path.resolve(root, dir)))(stringAt(top.cacheDir, file, 'cacheDir')),
    store: stringAt(top.store, file, 'store'),
  };
  if (top.secrets === undefined) return { ...settings, secretsAllow: [] };
  const secrets = objectAt(top.secrets, file, 'secrets');
  checkKeys(secrets, KNOWN_KEYS.secrets, file, 'secrets.');
  return { ...settings, secretsAllow: globsAt(secrets.allow, file, 'secrets.allow') };
}

function stringAt(value: unknown, file: string, key: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ConfigError(`${file}: ${key} must be a non-empty string.`, `${CONFIG_FILE_NAME} ${key}`);
  }
  return value;
}

function objectAt(value: unknown, file: string, key: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError(`${file}: ${key} must be an object, e.g. { "secrets": { "allow": ["test/fixtures/**"] } }.`, `${CONFIG_FILE_NAME} ${key}`);
  }
  return value as Record<string, unknown>;
}

function checkKeys(object: Record<string, unknown>, known: ReadonlySet<string>, file: string, prefix: string): void {
  for (const key of Object.keys(object)) {
    if (!known.has(key)) {
      const expected = [...known].map((k) => `${prefix}${k}`).join(', ');
      throw new ConfigError(`${file}: unknown key "${prefix}${key}". Known keys: ${expected}.`, `${CONFIG_FILE_NAME} ${prefix}${key}`);
    }
  }
}

function globsAt(value: unknown, file: string, key: string): string[] {
  if (value === undefined) return [];
  const option = `${CONFIG_FILE_NAME} ${key}`;
  if (!Array.isArray(value) || !value.every((g) => typeof g === 'string')) {
    throw new ConfigError(`${file}: ${key} must be an array of glob strings, e.g. ["test/fixtures/**"].`, option);
  }
  for (const glob of value as string[]) {
    if (glob.trim() === '') throw new ConfigError(`${file}: ${key} contains an empty glob. Remove it.`, option);
    try {
      picomatch.makeRe(glob, { dot: true, strictBrackets: true });
    } catch (error) {
      throw new ConfigError(`${file}: ${key} glob "${glob}" is malformed: ${(error as Error).message}. Fix or remove it.`, option, { cause: error });
    }
  }
  return [...(value as string[])];
}
