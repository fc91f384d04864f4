import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ModelLoadError } from '../errors.js';
import { layOutModelFolder } from './model-folder.js';
import type { ModelSpec } from './models.js';

/** How long the reachability probe of the hub may take before the hub is skipped. */
const HUB_PROBE_TIMEOUT_MS = 4000;

/** True when the Hugging Face hub answers within a few seconds. */
export async function isHubReachable(host: string): Promise<boolean> {
  try {
    const res = await fetch(host, { method: 'HEAD', signal: AbortSignal.timeout(HUB_PROBE_TIMEOUT_MS) });
    return res.status < 500;
  } catch {
    // Unreachable is an expected answer here (offline machines), not an error: the caller tries the next source.
    return false;
  }
}

/**
 * Provisions a model through transformers.js' own download-and-cache (hub files cached under `hubCacheDir`),
 * then copies them into the model folder, checking the weights' sha256.
 * @throws ModelLoadError when the download fails.
 */
export async function provisionFromHub(options: {
  spec: ModelSpec;
  dir: string;
  hubCacheDir: string;
  onStep: (msg: string) => void;
}): Promise<void> {
  const { spec, dir, hubCacheDir, onStep } = options;
  const transformers = await import('@huggingface/transformers');
  const { env, AutoTokenizer, AutoConfig, AutoModel } = transformers;
  env.allowRemoteModels = true;
  env.cacheDir = hubCacheDir;
  let lastPct = -10;
  const progress = (p: { status?: string; file?: string; progress?: number }): void => {
    if (p.status === 'progress' && typeof p.progress === 'number' && p.progress - lastPct >= 10) {
      lastPct = p.progress;
      onStep(`downloading ${p.file ?? ''} ${p.progress.toFixed(0)}%`);
    }
  };
  try {
    onStep(`downloading ${spec.hfRepo} from the Hugging Face hub`);
    await AutoConfig.from_pretrained(spec.hfRepo, { cache_dir: hubCacheDir, progress_callback: progress });
    await AutoTokenizer.from_pretrained(spec.hfRepo, { cache_dir: hubCacheDir, progress_callback: progress });
    // Loading the model is transformers.js' way to download and cache its weights.
    const model = await AutoModel.from_pretrained(spec.hfRepo, {
      cache_dir: hubCacheDir,
      dtype: spec.dtype,
      progress_callback: progress,
    });
    await model.dispose();
  } catch (error) {
    throw new ModelLoadError(`Download of ${spec.hfRepo} failed: ${String(error)}`, spec.id, undefined, { cause: error });
  }
  const repoDir = path.join(hubCacheDir, spec.hfRepo);
  await mkdir(dir, { recursive: true });
  await copyFile(path.join(repoDir, 'config.json'), path.join(dir, 'config.json'));
  await layOutModelFolder({
    spec,
    dir,
    onnxPath: path.join(repoDir, spec.onnxFile),
    tokenizerPath: path.join(repoDir, 'tokenizer.json'),
  });
}
