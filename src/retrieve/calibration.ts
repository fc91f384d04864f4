import type { AsyncCatalog } from '../store/catalog-port.js';
import type { SimilarityCalibration } from './default-evaluator.js';
import { dot } from './query-vector.js';

/** Chunks sampled to learn how similar "any chunk" is to a task. */
export const CALIBRATION_SAMPLE = 512;

/** A fixed random sample of the index's vectors, drawn once per catalog generation. */
export class VectorSample {
  private generation = -1;
  private vectors: Float32Array[] = [];

  /** The sample for the catalog's current state (re-drawn when the catalog changed). */
  async get(catalog: AsyncCatalog, revision: string): Promise<Float32Array[]> {
    const generation = await catalog.generation();
    if (generation !== this.generation) {
      const ids = sampleIds(await catalog.liveRowIds(), CALIBRATION_SAMPLE);
      this.vectors = (await catalog.vectorsForRows(ids, revision)).map((r) => r.vector);
      this.generation = generation;
    }
    return this.vectors;
  }
}

/** Mean and standard deviation of the task's similarity to the sample. */
export function calibrate(task: Float32Array, sample: readonly Float32Array[]): SimilarityCalibration {
  if (sample.length < 2) return { mean: 0.1, std: 0.1 };
  const sims = sample.map((v) => dot(task, v));
  const mean = sims.reduce((s, x) => s + x, 0) / sims.length;
  const variance = sims.reduce((s, x) => s + (x - mean) ** 2, 0) / (sims.length - 1);
  // A floor on the spread keeps a tiny or uniform index from turning small differences into huge z-scores.
  return { mean, std: Math.max(Math.sqrt(variance), 0.04) };
}

/** Up to n ids picked evenly at random, deterministic for a given list (seeded by its length). */
function sampleIds(ids: readonly number[], n: number): number[] {
  if (ids.length <= n) return [...ids];
  let seed = Math.imul(ids.length, 2654435761) >>> 0;
  const rand = (): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const picked = new Set<number>();
  while (picked.size < n) picked.add(ids[Math.floor(rand() * ids.length)]!);
  return [...picked];
}
