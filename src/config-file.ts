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
}

/** Keys `codescout.json` knows, per object; anything else is refused so that a typo never silently does nothing. */
const KNOWN_KEYS = { top: new Set(['$schema', 'secrets']), secrets: new Set(['allow']) } as const;

/**
 * Reads `codescout.json` at the root (under the read rule: a regular file inside the real root). A missing file
 * means no settings.
 * @throws ConfigError naming the file and the key for bad JSON, an unknown key, a value of the wrong type, or a
 * malformed glob, and naming the file when it exists but cannot be read.
 * @example
 * // codescout.json: { "secrets": { "allow": ["test/fixtures/**"] } }
 * readConfigFile('/repo').secretsAllow; // ['test/fixtures/**']
 */
export function readConfigFile(root: string, realRoot: string): ConfigFileSettings {
  const file = path.join(root, CONFIG_FILE_NAME);
  const text = readTextInsideRootSync({ realRoot, absPath: file });
  if (typeof text !== 'string') {
    if (text.refused.code === 'ENOENT') return { file: null, secretsAllow: [] };
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
  if (top.secrets === undefined) return { file, secretsAllow: [] };
  const secrets = objectAt(top.secrets, file, 'secrets');
  checkKeys(secrets, KNOWN_KEYS.secrets, file, 'secrets.');
  return { file, secretsAllow: globsAt(secrets.allow, file, 'secrets.allow') };
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
