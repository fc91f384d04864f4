import { defaultModelsDir } from '../src/config.js';
import { createEmbedder } from '../src/embed/create-embedder.js';
import { MODELS } from '../src/embed/models.js';

/** Provisions the default model once before any worker starts, so tests never race to download it. */
export default async function setup(): Promise<void> {
  const embedder = await createEmbedder({ spec: MODELS['all-MiniLM-L6-v2']!, modelsDir: defaultModelsDir() });
  await embedder.dispose();
}
