import { existsSync, realpathSync, statSync } from 'node:fs';
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
  embedBatchSize: 1,
  watchDebounceMs: 75,
  maxCycles: 3,
  minHigh: 3,
  highThreshold: 0.7,
  lockWaitMs: 0,
});

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
  /** The shared models folder; default `<package>/index-cache/models` (env CODESCOUT_MODELS_DIR). */
  modelsDir?: string;
  /** Skip the Hugging Face hub when provisioning (env CODESCOUT_OFFLINE=1). */
  offline?: boolean;
  include?: string[];
  exclude?: string[];
  maxFileBytes?: number;
  /** How long a writer waits for another writer's lock before failing (ms). */
  lockWaitMs?: number;
  /** Globs of files indexed even though the secret policy would skip them; added to `secrets.allow` of codescout.json. */
  secretsAllow?: string[];
}

/** The complete, frozen configuration every stage reads. */
export interface Config {
  readonly root: string;
  readonly cacheDir: string;
  readonly model: ModelSpec;
  readonly modelDir: string | undefined;
  readonly modelsDir: string;
  readonly offline: boolean;
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  readonly maxFileBytes: number;
  readonly lockWaitMs: number;
  /** Globs exempt from the secret policy: `secrets.allow` of `<root>/codescout.json`, then `secretsAllow`. */
  readonly secretsAllow: readonly string[];
}

/**
 * Resolves options + environment + `<root>/codescout.json` into a complete Config. The only reader of process.env.
 * @throws ConfigError when the root is missing or not a folder, the model is unknown, or codescout.json is bad.
 */
export function resolveConfig(options: IndexOptions, env: NodeJS.ProcessEnv = process.env): Config {
  const root = path.resolve(options.root);
  if (!existsSync(root)) throw new ConfigError(`Root ${root} does not exist. Pass an existing folder.`, 'root');
  if (!statSync(root).isDirectory()) throw new ConfigError(`Root ${root} is a file, not a folder. Pass its folder.`, 'root');
  const modelId = options.model ?? env.CODESCOUT_MODEL ?? DEFAULTS.model;
  const model = resolveModelSpec(modelId);
  const cacheDir = path.resolve(options.cacheDir ?? env.CODESCOUT_CACHE_DIR ?? path.join(root, DEFAULTS.cacheDirName));
  const fileSettings = readConfigFile(root, realpathSync.native(root));
  const maxFileBytes = options.maxFileBytes ?? DEFAULTS.maxFileBytes;
  if (!Number.isFinite(maxFileBytes) || maxFileBytes <= 0) {
    throw new ConfigError(`maxFileBytes must be a positive number of bytes, got ${maxFileBytes}.`, 'maxFileBytes');
  }
  return Object.freeze({
    root,
    cacheDir,
    model,
    modelDir: options.modelDir ?? env.CODESCOUT_MODEL_DIR ?? undefined,
    modelsDir: path.resolve(options.modelsDir ?? env.CODESCOUT_MODELS_DIR ?? defaultModelsDir()),
    offline: options.offline ?? env.CODESCOUT_OFFLINE === '1',
    include: Object.freeze([...(options.include ?? [])]),
    exclude: Object.freeze([...(options.exclude ?? [])]),
    maxFileBytes,
    lockWaitMs: options.lockWaitMs ?? DEFAULTS.lockWaitMs,
    secretsAllow: Object.freeze([...fileSettings.secretsAllow, ...(options.secretsAllow ?? [])]),
  });
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

/** The shared models folder: the package's own index-cache/models (as transformers.js caches inside its package). */
export function defaultModelsDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.CODESCOUT_MODELS_DIR ?? path.join(PACKAGE_ROOT, DEFAULTS.cacheDirName, 'models'));
}
