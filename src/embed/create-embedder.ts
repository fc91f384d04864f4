import type { Embedder } from './embedder.js';
import type { ModelSpec } from './models.js';
import { resolveModel, type ModelOrigin } from './provision-model.js';
import { TransformersEmbedder } from './transformers-embedder.js';

/** Options of {@link createEmbedder}. */
export interface CreateEmbedderOptions {
  readonly spec: ModelSpec;
  readonly modelDir?: string;
  readonly modelsDir: string;
  /** Older models folders searched read-only after `modelsDir`. */
  readonly fallbackModelsDirs?: readonly string[];
  readonly offline?: boolean;
  /** Maven repository base URL (default Maven Central). */
  readonly mavenUrl?: string;
  readonly httpsProxy?: string;
  readonly threads?: number;
  readonly batchSize?: number;
  readonly onStep?: (message: string) => void;
}

/**
 * Provisions the model if needed (see resolveModel) and loads it.
 * @throws ModelLoadError when no source can provide it or it does not load.
 */
export async function createEmbedder(options: CreateEmbedderOptions): Promise<Embedder & { origin: ModelOrigin; dir: string }> {
  const { dir, origin } = await resolveModel({
    spec: options.spec,
    modelDir: options.modelDir,
    modelsDir: options.modelsDir,
    fallbackModelsDirs: options.fallbackModelsDirs,
    mavenUrl: options.mavenUrl,
    httpsProxy: options.httpsProxy,
    allowHub: !options.offline,
    onStep: options.onStep,
  });
  const embedder = await TransformersEmbedder.load({
    spec: options.spec,
    dir,
    threads: options.threads,
    batchSize: options.batchSize,
  });
  return Object.assign(embedder, { origin, dir });
}
