import { defaultModelsDir } from '../../src/config.js';
import type { Embedder } from '../../src/embed/embedder.js';
import { createEmbedder } from '../../src/embed/create-embedder.js';
import { MODELS } from '../../src/embed/models.js';

let shared: Promise<Embedder> | undefined;

/** The real default model, loaded once per test file (provisioned by global setup). */
export function loadTestEmbedder(): Promise<Embedder> {
  shared ??= createEmbedder({ spec: MODELS['all-MiniLM-L6-v2']!, modelsDir: defaultModelsDir(), offline: true, threads: 1 });
  return shared;
}

/** Cosine similarity of two normalised vectors. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
