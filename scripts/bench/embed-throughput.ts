/** Embedder throughput on real chunk texts, against a bare onnxruntime session fed the same token ids. */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { decodeSource, MultiLanguageChunker } from '../../src/chunk/index.js';
import { discoverFiles } from '../../src/discover/index.js';
import { TransformersEmbedder } from '../../src/embed/transformers-embedder.js';
import type { Embedder, ModelSpec } from '../../src/index.js';
import { timed } from './measure.js';
import { seededRandom, shuffled } from './seeded.js';

/** What one throughput run measured. */
export interface EmbedThroughput {
  readonly chunks: number;
  readonly tokens: number;
  /** embedder.embed: tokenise + infer + pool (ms). */
  readonly embedMs: number;
  /** CPU time of the same (ms). */
  readonly embedCpuMs: number;
  /** Bare InferenceSession.run over the same ids (ms); null when the embedder is not a TransformersEmbedder. */
  readonly bareMs: number | null;
}

/** Chunks per second of `ms` spent on `chunks`. */
export function chunksPerSecond(chunks: number, ms: number): number {
  return chunks / (ms / 1000);
}

/**
 * The embed texts of `n` chunks chosen at random (seeded) among all chunks of the files under `root`,
 * chunked exactly as the indexer chunks them.
 */
export async function sampleEmbedTexts(o: { root: string; n: number; seed: number; maxTokens: number }): Promise<string[]> {
  const chunker = new MultiLanguageChunker({ maxTokens: o.maxTokens });
  const { files } = await discoverFiles({ root: o.root });
  const texts: string[] = [];
  for (const f of files) {
    const content = decodeSource(await readFile(f.absPath));
    for (const c of chunker.chunk({ path: f.path, language: f.language, content }).chunks) texts.push(c.embedText);
  }
  return shuffled(texts, seededRandom(o.seed)).slice(0, o.n);
}

/**
 * Times `embedder.embed(texts)` and, for the transformers.js embedder, a bare onnxruntime session over the
 * same token ids. Both are warmed over every input first: onnxruntime pays a one-off cost per new sequence
 * length, which would otherwise bill whichever runner goes first.
 */
export async function measureEmbedThroughput(embedder: Embedder, texts: readonly string[], spec: ModelSpec): Promise<EmbedThroughput> {
  if (!(embedder instanceof TransformersEmbedder)) {
    await embedder.embed(texts);
    const run = await timed(() => embedder.embed(texts));
    return { chunks: texts.length, tokens: 0, embedMs: run.ms, embedCpuMs: run.cpuMs, bareMs: null };
  }
  const ids = texts.map((t) => embedder.tokenize(t));
  const tokens = ids.reduce((s, x) => s + x.length, 0);
  await embedder.embedIds(ids);
  const run = await timed(() => embedder.embed(texts));
  // createEmbedder() tags its embedder with the model folder it loaded from.
  const dir = (embedder as TransformersEmbedder & { dir?: string }).dir;
  const bareMs = dir === undefined ? null : await timeBareSession(path.join(dir, spec.onnxFile), ids);
  return { chunks: texts.length, tokens, embedMs: run.ms, embedCpuMs: run.cpuMs, bareMs };
}

async function timeBareSession(onnxPath: string, ids: readonly number[][]): Promise<number> {
  const session = await ort.InferenceSession.create(onnxPath, {
    intraOpNumThreads: os.availableParallelism(),
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
  });
  const feed = (x: readonly number[]): Record<string, ort.Tensor> => ({
    input_ids: new ort.Tensor('int64', BigInt64Array.from(x.map(BigInt)), [1, x.length]),
    attention_mask: new ort.Tensor('int64', new BigInt64Array(x.length).fill(1n), [1, x.length]),
    token_type_ids: new ort.Tensor('int64', new BigInt64Array(x.length), [1, x.length]),
  });
  try {
    for (const x of ids) await session.run(feed(x));
    const t0 = performance.now();
    for (const x of ids) await session.run(feed(x));
    return performance.now() - t0;
  } finally {
    await session.release();
  }
}
