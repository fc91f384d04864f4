/** Identity of the model that wrote a vector; an index records it and refuses to mix. */
export interface EmbedderIdentity {
  /** Model id from the model table, e.g. `all-MiniLM-L6-v2`. */
  readonly model: string;
  /** Vector length. */
  readonly dimension: number;
  /** sha256 of the ONNX weights file: changes whenever the weights do. */
  readonly revision: string;
}

/** Turns text into L2-normalised vectors. */
export interface Embedder extends EmbedderIdentity {
  /** The model's max input length in tokens; longer input is truncated. */
  readonly maxTokens: number;
  /** Embeds documents (code chunks). One vector per text, same order. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
  /** Embeds a search query (applies the model's query prefix, if any). */
  embedQuery(text: string): Promise<Float32Array>;
  /** Counts tokens the way the model's tokenizer does (without special tokens). */
  countTokens(text: string): number;
  /** Releases the ONNX session. */
  dispose(): Promise<void>;
}
