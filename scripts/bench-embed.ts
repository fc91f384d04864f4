/**
 * Embedder throughput vs a bare onnxruntime-node InferenceSession fed the same token ids (the ceiling here).
 * Usage: npx tsx scripts/bench-embed.ts [root-with-code=node_modules] [--chunks 600] [--model all-MiniLM-L6-v2]
 */
import os from 'node:os';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { MultiLanguageChunker } from '../src/chunk/multi-language-chunker.js';
import { decodeSource } from '../src/chunk/decode-source.js';
import { defaultModelsDir, resolveModelSpec } from '../src/config.js';
import { discoverFiles } from '../src/discover/index.js';
import { resolveModel } from '../src/embed/provision-model.js';
import { TransformersEmbedder } from '../src/embed/transformers-embedder.js';
import { readFile } from 'node:fs/promises';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string): string => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const root = path.resolve(args.find((a) => !a.startsWith('--') && !args[args.indexOf(a) - 1]?.startsWith('--')) ?? 'node_modules');
const wanted = Number(flag('--chunks', '600'));
const spec = resolveModelSpec(flag('--model', 'all-MiniLM-L6-v2'));

// Real code chunks, as the indexer would embed them.
const chunker = new MultiLanguageChunker({ maxTokens: spec.maxTokens });
const { files } = await discoverFiles({ root });
const texts: string[] = [];
for (const f of files.filter((f) => f.language === 'typescript' || f.language === 'javascript')) {
  for (const c of chunker.chunk({ path: f.path, language: f.language, content: decodeSource(await readFile(f.absPath)) }).chunks) texts.push(c.embedText);
  if (texts.length >= wanted) break;
}
texts.length = Math.min(texts.length, wanted);

const { dir } = await resolveModel({ spec, modelsDir: defaultModelsDir(), allowHub: false });
const embedder = await TransformersEmbedder.load({ spec, dir });
const ids = texts.map((t) => embedder.tokenize(t));
const tokens = ids.reduce((s, x) => s + x.length, 0);
// Warm-up over every input: onnxruntime pays a one-off cost for each new sequence length, which would
// otherwise bill whichever runner goes first.
await embedder.embedIds(ids);

const t0 = performance.now();
await embedder.embed(texts);
const embedMs = performance.now() - t0;
const t1 = performance.now();
await embedder.embedIds(ids);
const idsMs = performance.now() - t1;

const session = await ort.InferenceSession.create(path.join(dir, spec.onnxFile), {
  intraOpNumThreads: os.availableParallelism(),
  interOpNumThreads: 1,
  graphOptimizationLevel: 'all',
});
const feed = (x: number[]): Record<string, ort.Tensor> => ({
  input_ids: new ort.Tensor('int64', BigInt64Array.from(x.map(BigInt)), [1, x.length]),
  attention_mask: new ort.Tensor('int64', new BigInt64Array(x.length).fill(1n), [1, x.length]),
  token_type_ids: new ort.Tensor('int64', new BigInt64Array(x.length), [1, x.length]),
});
for (const x of ids) await session.run(feed(x));
const t2 = performance.now();
for (const x of ids) await session.run(feed(x));
const bareMs = performance.now() - t2;

const rate = (ms: number): string => `${(texts.length / (ms / 1000)).toFixed(1)} chunks/s  ${(tokens / (ms / 1000)).toFixed(0)} tokens/s`;
console.log(`model ${spec.id}, ${texts.length} chunks, ${tokens} tokens (mean ${(tokens / texts.length).toFixed(0)}), ${os.availableParallelism()} threads`);
console.log(`embedder.embed (tokenise + infer + pool)   ${rate(embedMs)}`);
console.log(`embedder.embedIds (infer + pool)           ${rate(idsMs)}`);
console.log(`bare onnxruntime InferenceSession.run      ${rate(bareMs)}`);
console.log(`ratio embed/bare ${(bareMs / embedMs).toFixed(3)}   embedIds/bare ${(bareMs / idsMs).toFixed(3)}`);
await embedder.dispose();
