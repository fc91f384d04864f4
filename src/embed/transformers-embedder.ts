import os from 'node:os';
import path from 'node:path';
import { AbortError, ModelLoadError } from '../errors.js';
import type { Embedder } from './embedder.js';
import { lengthBatches, type BatchLimits } from './length-batches.js';
import { assertModelFolder, sha256File } from './model-folder.js';
import type { ModelSpec } from './models.js';

/**
 * Batching (issue 17), measured with `scripts/bench-embed.ts /tmp/es --batches --chunks 512 --slice 256` on this
 * project's 2-core machine (512 es-toolkit chunk texts, mean 168 tokens; texts/s, best of 3 interleaved rounds).
 * Two intra-op threads: batch 1 70.9; sorted by length 4 rows 86.1, 8 rows 89.3 (1.26x; 1.20-1.25x in 2 more runs),
 * 16 rows 86.2; at most 512 padded tokens 87.8; unsorted 8 rows 56.9 (32% padding) — at load 1.5-2.1, the bench's
 * own two threads and intermittent work beside it. On a quiet machine (load 0.5) batch 1 reaches 97.5 and 8 rows
 * 102.0 (1.05x); under a compile beside it 8 rows gave 1.66x. What batches save is the two threads' hand-off at
 * every operator, 8 times rarer, and that matters most when the other core is busy — as it is while someone works.
 * One intra-op thread: batch 1 59.4, 8 rows 51.3 (0.86x), 512 tokens 58.7 — the int8 kernels are compute-bound at
 * batch 1. So texts go 8 to a pass, sorted by length, when there are threads to hand off between, and one at a time
 * otherwise.
 *
 * The q8 weights quantise activations per tensor, so a batched text's vector moves with its neighbours: cosine to
 * its batch-1 vector min 0.980, mean 0.992 at 8 rows. R@10 (single, iterative) on the four doc2code dev sets stays
 * within one task of batch 1 (-0.4 to +0.8 points; bench/RESULTS.md), so vectors cached at batch 1 and batched ones
 * count as the same model revision; queries are embedded alone, so a query's vector stays exactly reproducible.
 */
const DEFAULT_BATCH_ROWS = 8;
/** Texts per pass with a single intra-op thread (see above). */
const SINGLE_THREAD_BATCH_ROWS = 1;
/** Padded tokens per pass: binds only above 256-token inputs (bge-small's 512: 4 rows), bounding a pass's memory. */
const DEFAULT_BATCH_TOKENS = 2048;
/**
 * onnxruntime inter-op threads: 1 (sequential executor), both cores in the intra-op pool (threads default: all
 * cores). The encoder is one chain of operators, so a parallel executor has little to overlap, and its threads
 * compete with the intra-op pool: 2 intra x 2 inter measured 44 texts/s at batch 1 against 71 for 2 x 1.
 */
const DEFAULT_INTER_OP_THREADS = 1;
/** Characters kept before tokenising: far above any model's token budget, bounds the cost of huge inputs. */
const CHARS_PER_TOKEN_CAP = 16;

type Transformers = typeof import('@huggingface/transformers');
type Tokenizer = Awaited<ReturnType<Transformers['AutoTokenizer']['from_pretrained']>>;
type Model = Awaited<ReturnType<Transformers['AutoModel']['from_pretrained']>>;

/** Options of {@link TransformersEmbedder.load}. */
export interface TransformersEmbedderOptions {
  readonly spec: ModelSpec;
  /** A complete model folder (see resolveModel). */
  readonly dir: string;
  /** onnxruntime intra-op threads; default: all cores. */
  readonly threads?: number;
  /** onnxruntime inter-op threads (with more than one, the session runs independent nodes in parallel). */
  readonly interOpThreads?: number;
  /** Whether idle intra-op threads spin-wait for work (onnxruntime's default) instead of sleeping. */
  readonly spinning?: boolean;
  /** Most texts in one forward pass; default 8 with more than one intra-op thread, else 1. */
  readonly batchSize?: number;
  /** Most padded tokens (rows × longest) in one forward pass; default 2048. */
  readonly batchTokens?: number;
}

/**
 * Embedder on transformers.js + onnxruntime-node, loading only from a local folder (no network).
 * Tokenises each text once, sorts by token length, runs padded batches and pools (mean or CLS) itself.
 */
export class TransformersEmbedder implements Embedder {
  readonly model: string;
  readonly dimension: number;
  readonly maxTokens: number;
  /** How texts are grouped into forward passes. */
  readonly batchLimits: BatchLimits;

  private constructor(
    private readonly spec: ModelSpec,
    readonly revision: string,
    private readonly tf: Transformers,
    private readonly tokenizer: Tokenizer,
    private readonly net: Model,
    batchLimits: BatchLimits,
  ) {
    this.model = spec.id;
    this.dimension = spec.dimension;
    this.maxTokens = spec.maxTokens;
    this.batchLimits = batchLimits;
  }

  /**
   * Loads the model from its folder with remote loading switched off.
   * @throws ModelLoadError naming the folder when a file is missing or the session cannot start.
   */
  static async load(options: TransformersEmbedderOptions): Promise<TransformersEmbedder> {
    const { spec, dir } = options;
    assertModelFolder(dir, spec);
    const tf = await import('@huggingface/transformers');
    tf.env.allowRemoteModels = false;
    tf.env.allowLocalModels = true;
    tf.env.localModelPath = path.dirname(path.resolve(dir)) + path.sep;
    const name = path.basename(path.resolve(dir));
    const threads = options.threads ?? Math.max(1, os.availableParallelism());
    const interOpThreads = options.interOpThreads ?? DEFAULT_INTER_OP_THREADS;
    try {
      const [revision, tokenizer, net] = await Promise.all([
        sha256File(path.join(dir, spec.onnxFile)),
        tf.AutoTokenizer.from_pretrained(name, { local_files_only: true }),
        tf.AutoModel.from_pretrained(name, {
          local_files_only: true,
          dtype: spec.dtype,
          device: 'cpu',
          session_options: {
            intraOpNumThreads: threads,
            interOpNumThreads: interOpThreads,
            executionMode: interOpThreads > 1 ? 'parallel' : 'sequential',
            ...(options.spinning === false ? { extra: { session: { intra_op: { allow_spinning: '0' }, inter_op: { allow_spinning: '0' } } } } : {}),
          },
        }),
      ]);
      const limits = { maxRows: options.batchSize ?? (threads > 1 ? DEFAULT_BATCH_ROWS : SINGLE_THREAD_BATCH_ROWS), maxTokens: options.batchTokens ?? DEFAULT_BATCH_TOKENS };
      return new TransformersEmbedder(spec, revision, tf, tokenizer, net, limits);
    } catch (error) {
      throw new ModelLoadError(
        `Could not load ${spec.id} from ${dir}: ${(error as Error).message}. ` +
          `Delete the folder and run: npx codescout model fetch ${spec.id}`,
        spec.id,
        dir,
        { cause: error },
      );
    }
  }

  /** Token ids with [CLS]/[SEP], truncated to the model's max tokens. */
  tokenize(text: string): number[] {
    const capped = text.length > this.maxTokens * CHARS_PER_TOKEN_CAP ? text.slice(0, this.maxTokens * CHARS_PER_TOKEN_CAP) : text;
    const ids = this.tokenizer.encode(capped, { add_special_tokens: true });
    if (ids.length <= this.maxTokens) return ids;
    const truncated = ids.slice(0, this.maxTokens - 1);
    truncated.push(this.tokenizer.sep_token_id);
    return truncated;
  }

  countTokens(text: string): number {
    return this.tokenizer.encode(text, { add_special_tokens: false }).length;
  }

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const prefix = this.spec.documentPrefix;
    return this.embedIds(texts.map((t) => this.tokenize(prefix + t)), signal);
  }

  async embedQuery(text: string): Promise<Float32Array> {
    const [vector] = await this.embedIds([this.tokenize(this.spec.queryPrefix + text)]);
    return vector!;
  }

  /** Embeds pre-tokenised inputs in length-bucketed batches (see lengthBatches); pools, normalises. */
  async embedIds(idLists: readonly number[][], signal?: AbortSignal): Promise<Float32Array[]> {
    return this.embedBatches(idLists, lengthBatches(idLists.map((ids) => ids.length), this.batchLimits), signal);
  }

  /**
   * Embeds pre-tokenised inputs grouped as `batches` says (lists of indices into `idLists`, each index once);
   * vectors come back in input order.
   */
  async embedBatches(idLists: readonly number[][], batches: readonly (readonly number[])[], signal?: AbortSignal): Promise<Float32Array[]> {
    const out = new Array<Float32Array>(idLists.length);
    for (const batch of batches) {
      if (signal?.aborted) throw new AbortError('Embedding aborted');
      const vectors = await this.runBatch(batch.map((i) => idLists[i]!));
      batch.forEach((i, j) => (out[i] = vectors[j]!));
    }
    return out;
  }

  private async runBatch(batch: number[][]): Promise<Float32Array[]> {
    const rows = batch.length;
    const seq = Math.max(...batch.map((ids) => ids.length));
    const inputIds = new BigInt64Array(rows * seq);
    const mask = new BigInt64Array(rows * seq);
    batch.forEach((ids, r) => {
      for (let t = 0; t < ids.length; t++) {
        inputIds[r * seq + t] = BigInt(ids[t]!);
        mask[r * seq + t] = 1n;
      }
    });
    const { Tensor } = this.tf;
    const output = (await this.net({
      input_ids: new Tensor('int64', inputIds, [rows, seq]),
      attention_mask: new Tensor('int64', mask, [rows, seq]),
      token_type_ids: new Tensor('int64', new BigInt64Array(rows * seq), [rows, seq]),
    })) as { last_hidden_state: { data: Float32Array; dims: number[] } };
    const hidden = output.last_hidden_state.data;
    const dim = this.dimension;
    return batch.map((ids, r) => poolRow({ hidden, row: r, seq, dim, length: ids.length, pooling: this.spec.pooling }));
  }

  async dispose(): Promise<void> {
    await this.net.dispose();
  }
}

/** Mean over real tokens or the [CLS] vector, then L2 normalisation. */
function poolRow(o: { hidden: Float32Array; row: number; seq: number; dim: number; length: number; pooling: 'mean' | 'cls' }): Float32Array {
  const v = new Float32Array(o.dim);
  const base = o.row * o.seq * o.dim;
  const tokens = o.pooling === 'cls' ? 1 : o.length;
  for (let t = 0; t < tokens; t++) {
    const off = base + t * o.dim;
    for (let d = 0; d < o.dim; d++) v[d]! += o.hidden[off + d]!;
  }
  let norm = 0;
  for (let d = 0; d < o.dim; d++) norm += v[d]! * v[d]!;
  norm = Math.sqrt(norm) || 1;
  for (let d = 0; d < o.dim; d++) v[d]! /= norm;
  return v;
}
