/** Weights of the refined query vector; α keeps the task's own direction dominant so the query never drifts. */
export const QUERY_WEIGHTS = Object.freeze({ alpha: 0.6, beta: 0.25, gamma: 0.15, delta: 0.1 });

/**
 * The next cycle's query vector (Rocchio-style):
 * normalise(α·q_task + β·mean(high-relevance vectors) + γ·expansion − δ·mean(excluded vectors)), α ≥ 0.5.
 * Missing parts drop out and their weight goes back to the task vector.
 */
export function combineQueryVector(o: {
  task: Float32Array;
  high: readonly Float32Array[];
  expansion?: Float32Array;
  excluded: readonly Float32Array[];
  weights?: typeof QUERY_WEIGHTS;
}): Float32Array {
  const w = o.weights ?? QUERY_WEIGHTS;
  const beta = o.high.length > 0 ? w.beta : 0;
  const gamma = o.expansion ? w.gamma : 0;
  const delta = o.excluded.length > 0 ? w.delta : 0;
  const alpha = Math.max(0.5, 1 - beta - gamma);
  const out = new Float32Array(o.task.length);
  addScaled(out, o.task, alpha);
  if (beta > 0) addScaled(out, mean(o.high), beta);
  if (gamma > 0) addScaled(out, o.expansion!, gamma);
  if (delta > 0) addScaled(out, mean(o.excluded), -delta);
  return normalise(out);
}

function mean(vectors: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(vectors[0]!.length);
  for (const v of vectors) addScaled(out, v, 1 / vectors.length);
  return out;
}

function addScaled(target: Float32Array, v: Float32Array, scale: number): void {
  for (let i = 0; i < target.length; i++) target[i]! += v[i]! * scale;
}

/** Scales a vector to length 1 (a zero vector stays zero). */
export function normalise(v: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  n = Math.sqrt(n);
  if (n === 0) return v;
  for (let i = 0; i < v.length; i++) v[i]! /= n;
  return v;
}

/** Dot product (= cosine for normalised vectors). */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
