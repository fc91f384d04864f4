import os from 'node:os';
import path from 'node:path';
import { AbortError, ModelLoadError } from '../errors.js';
import type { Embedder } from './embedder.js';
import { assertModelFolder, sha256File } from './model-folder.js';
import type { ModelSpec } from './models.js';

/**
 * Texts per forward pass. One, on purpose: the q8 weights quantise activations per tensor, so a text's vector
 * shifts slightly with its batch neighbours (cosine ~0.997), which breaks "same text, same vector"; and on CPU
 * batch 1 measured fastest anyway (no padding; 83 vs 70 texts/s at 32). Larger batches are sorted by length.
 */
const DEFAULT_BATCH_SIZE = 1;
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
  readonly batchSize?: number;
}

/**
 * Embedder on transformers.js + onnxruntime-node, loading only from a local folder (no network).
 * Tokenises each text once, sorts by token length, runs padded batches and pools (mean or CLS) itself.
 */
export class TransformersEmbedder implements Embedder {
  readonly model: string;
  readonly dimension: number;
  readonly maxTokens: number;
  private readonly batchSize: number;

  private constructor(
    private readonly spec: ModelSpec,
    readonly revision: string,
    private readonly tf: Transformers,
    private readonly tokenizer: Tokenizer,
    private readonly net: Model,
    batchSize: number,
  ) {
    this.model = spec.id;
    this.dimension = spec.dimension;
    this.maxTokens = spec.maxTokens;
    this.batchSize = batchSize;
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
    try {
      const [revision, tokenizer, net] = await Promise.all([
        sha256File(path.join(dir, spec.onnxFile)),
        tf.AutoTokenizer.from_pretrained(name, { local_files_only: true }),
        tf.AutoModel.from_pretrained(name, {
          local_files_only: true,
          dtype: spec.dtype,
          device: 'cpu',
          session_options: { intraOpNumThreads: threads, interOpNumThreads: 1 },
        }),
      ]);
      return new TransformersEmbedder(spec, revision, tf, tokenizer, net, options.batchSize ?? DEFAULT_BATCH_SIZE);
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

  /** Embeds pre-tokenised inputs: sorts by length, runs padded batches, pools, normalises. */
  async embedIds(idLists: readonly number[][], signal?: AbortSignal): Promise<Float32Array[]> {
    const order = idLists.map((_, i) => i).sort((a, b) => idLists[a]!.length - idLists[b]!.length);
    const out = new Array<Float32Array>(idLists.length);
    for (let start = 0; start < order.length; start += this.batchSize) {
      if (signal?.aborted) throw new AbortError('Embedding aborted');
      const batch = order.slice(start, start + this.batchSize);
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
