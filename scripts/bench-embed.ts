/**
 * Embedder throughput vs a bare onnxruntime-node InferenceSession fed the same token ids (the ceiling here).
 *
 * Usage: npx tsx scripts/bench-embed.ts [root-with-code=node_modules] [--chunks 600] [--model all-MiniLM-L6-v2]
 *        npx tsx scripts/bench-embed.ts <root> --batches [--chunks 600] [--sizes 1,4,8,16,32] [--budgets 256,512,1024]
 *                [--threads 2x1,1x1] [--rounds 3] [--slice 256] [--seed 7] [--onnx other-weights.onnx]
 *
 * --batches prints the batch-size table: per onnxruntime thread setting (intra x inter; -nospin: idle threads
 * sleep), batch 1 and each batch plan side by side in the same run (fixed rows sorted by token length and unsorted,
 * padded-token budgets, and the embedder's default), with texts/s, tokens/s, padding waste, speed against batch 1,
 * tokens per CPU-second of this process (all its threads: with one intra-op thread the least disturbed by other
 * load) and the cosine of each text's vector against its batch-1 vector; then embedder.embed (tokenise + infer +
 * pool) at the default and the bare onnxruntime session over the same plan (the ceiling). Plans run slice by slice,
 * rounds interleaved, so load from elsewhere hits them alike. Texts are a seeded sample of all chunks under <root>,
 * chunked as the indexer chunks them. --onnx swaps in another weights file of the same model (e.g. an fp32 export).
 */
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { MultiLanguageChunker } from '../src/chunk/multi-language-chunker.js';
import { decodeSource } from '../src/chunk/decode-source.js';
import { defaultModelsDir, resolveModelSpec } from '../src/config.js';
import { discoverFiles } from '../src/discover/index.js';
import { lengthBatches } from '../src/embed/length-batches.js';
import type { ModelSpec } from '../src/embed/models.js';
import { resolveModel } from '../src/embed/provision-model.js';
import { TransformersEmbedder } from '../src/embed/transformers-embedder.js';
import { bareSession, budgetPlans, formatPlanRows, limitsPlan, loadNow, parseThreads, PLAN_HEADER, sizePlans, timePlans } from './bench/embed-batches.js';
import { sampleEmbedTexts } from './bench/embed-throughput.js';
import { intFlag, parseBenchArgs, runScript } from './bench/cli-args.js';

const USAGE = 'usage: npx tsx scripts/bench-embed.ts [root] [--chunks N] [--model M] [--batches [--sizes 1,4,..] [--budgets 256,..] [--threads 2x1,1x1] [--rounds N] [--slice N] [--seed N] [--onnx file]]';

await runScript(USAGE, async () => {
  const args = parseBenchArgs(process.argv.slice(2), {
    values: ['chunks', 'model', 'sizes', 'budgets', 'threads', 'rounds', 'seed', 'slice', 'onnx'],
    booleans: ['batches'],
  });
  const root = path.resolve(args.positional[0] ?? 'node_modules');
  const spec = resolveModelSpec(args.values.get('model') ?? 'all-MiniLM-L6-v2');
  const { dir } = await resolveModel({ spec, modelsDir: defaultModelsDir(), allowHub: false });
  if (args.flags.has('batches')) await batchTable({ root, spec, dir, args });
  else await embedVsBare({ root, spec, dir, wanted: intFlag(args, 'chunks', 600) });
});

/** The batch-size table (see the file comment). */
async function batchTable(o: { root: string; spec: ModelSpec; dir: string; args: ReturnType<typeof parseBenchArgs> }): Promise<void> {
  const { args, spec } = o;
  const list = (name: string, fallback: string): string[] => (args.values.get(name) ?? fallback).split(',').map((s) => s.trim()).filter(Boolean);
  const sizes = list('sizes', '1,4,8,16,32').map(Number);
  const budgets = list('budgets', '256,512,1024').map(Number);
  const threads = list('threads', `${os.availableParallelism()}x1,1x1`).map(parseThreads);
  const rounds = intFlag(args, 'rounds', 3);
  const n = intFlag(args, 'chunks', 600);
  const seed = intFlag(args, 'seed', 7);
  // 256: the indexer embeds the queue 256 texts at a time.
  const slice = intFlag(args, 'slice', 256);
  const started = loadNow();
  const texts = await sampleEmbedTexts({ root: o.root, n, seed, maxTokens: spec.maxTokens });
  // --onnx: the same model folder with another weights file in place of the provisioned one.
  const swap = args.values.get('onnx');
  const dir = swap ? await folderWithWeights(o.dir, spec, path.resolve(swap)) : o.dir;
  try {
    let ids: number[][] = [];
    let tokens = 0;
    console.log(`model ${spec.id}${swap ? ` weights ${swap}` : ''}, ${texts.length} chunk texts of ${o.root} (seed ${seed}), slices of ${slice}, best of ${rounds} rounds per slice, ${os.availableParallelism()} cores`);
    console.log(`start: ${started}`);
    const ceilings: string[] = [];
    for (const t of threads) {
      const embedder = await TransformersEmbedder.load({ spec, dir, threads: t.intra, interOpThreads: t.inter, spinning: t.spinning });
      try {
        if (ids.length === 0) {
          ids = texts.map((x) => embedder.tokenize(x));
          tokens = ids.reduce((s, x) => s + x.length, 0);
          console.log(`${tokens} tokens incl. [CLS]/[SEP] (mean ${(tokens / ids.length).toFixed(1)}, max ${Math.max(...ids.map((x) => x.length))})`);
          console.log(PLAN_HEADER);
        }
        const limits = embedder.batchLimits;
        const plans = [...sizePlans(sizes), ...budgetPlans(budgets, Math.max(...sizes)), limitsPlan(`default ≤${limits.maxRows}r ≤${limits.maxTokens}t`, limits)];
        const results = await timePlans({ embedder, ids, plans, rounds, slice });
        const label = t.label;
        for (const line of formatPlanRows({ threads: label, results, texts: ids.length, tokens })) console.log(line);
        console.log(`  (${loadNow()})`);
        // The ceiling: embedder.embed (tokenise + infer + pool), embedBatches (infer + pool) and the bare session,
        // all at the default plan over all texts, rounds interleaved.
        const plan = lengthBatches(ids.map((x) => x.length), limits);
        const bare = await bareSession({ onnxPath: path.join(dir, spec.onnxFile), threads: t, ids, batches: plan });
        let [embedMs, idsMs, bareMs] = [Infinity, Infinity, Infinity];
        try {
          for (let r = 0; r < rounds; r++) {
            let t0 = performance.now();
            await embedder.embed(texts);
            embedMs = Math.min(embedMs, performance.now() - t0);
            t0 = performance.now();
            await embedder.embedBatches(ids, plan);
            idsMs = Math.min(idsMs, performance.now() - t0);
            bareMs = Math.min(bareMs, await bare.run());
          }
        } finally {
          await bare.release();
        }
        const rate = (ms: number): string => `${((ids.length / ms) * 1000).toFixed(1)} texts/s ${((tokens / ms) * 1000).toFixed(0)} tokens/s`;
        ceilings.push(
          `${label} default plan: embed (tokenise+infer+pool) ${rate(embedMs)} | embedBatches (infer+pool) ${rate(idsMs)} | ` +
            `bare onnxruntime ${rate(bareMs)} | embed/bare ${(bareMs / embedMs).toFixed(3)}, infer+pool/bare ${(bareMs / idsMs).toFixed(3)}`,
        );
      } finally {
        await embedder.dispose();
      }
    }
    for (const line of ceilings) console.log(line);
    console.log(`end: ${loadNow()}`);
  } finally {
    if (swap) await rm(dir, { recursive: true, force: true });
  }
}

/** A temporary copy of a model folder whose weights file is `weights`. */
async function folderWithWeights(dir: string, spec: ModelSpec, weights: string): Promise<string> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'codescout-bench-model-'));
  const copy = path.join(tmp, spec.id);
  await mkdir(path.join(copy, path.dirname(spec.onnxFile)), { recursive: true });
  for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json']) await copyFile(path.join(dir, f), path.join(copy, f));
  await copyFile(weights, path.join(copy, spec.onnxFile));
  return copy;
}

/** The original mode: embedder.embed / embedIds at the default batching vs a bare session at batch 1. */
async function embedVsBare(o: { root: string; spec: ModelSpec; dir: string; wanted: number }): Promise<void> {
  const { spec, dir, wanted } = o;
  // Real code chunks, as the indexer would embed them.
  const chunker = new MultiLanguageChunker({ maxTokens: spec.maxTokens });
  const { files } = await discoverFiles({ root: o.root });
  const texts: string[] = [];
  for (const f of files.filter((f) => f.language === 'typescript' || f.language === 'javascript')) {
    for (const c of chunker.chunk({ path: f.path, language: f.language, content: decodeSource(await readFile(f.absPath)) }).chunks) texts.push(c.embedText);
    if (texts.length >= wanted) break;
  }
  texts.length = Math.min(texts.length, wanted);

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
}
