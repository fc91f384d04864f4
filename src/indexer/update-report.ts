import type { SkippedFile } from '../types.js';

/** What one indexing pass did. Counts are chunks unless named otherwise. */
export interface UpdateReport {
  readonly root: string;
  /** Files in the index after the pass. */
  readonly files: number;
  /** Chunks in the index after the pass. */
  readonly chunks: number;
  /** Files whose content changed (re-chunked) in this pass. */
  readonly filesChanged: number;
  /** Texts sent to the embedder in this pass. */
  readonly embedded: number;
  /** New chunk rows whose vector came from the embedding cache. */
  readonly reused: number;
  /** Files removed from the index in this pass. */
  readonly removed: number;
  /** Files left out, with the reason. */
  readonly skipped: SkippedFile[];
  readonly seconds: number;
}

/** Progress of a pass, reported as it goes (never by printing). */
export interface UpdateProgress {
  readonly phase: 'model' | 'discover' | 'index' | 'save' | 'done';
  readonly filesDone: number;
  readonly filesTotal: number;
  readonly chunksEmbedded: number;
  /** Texts written to the index whose vectors are still being made (searchable by words until then). */
  readonly textsWaiting?: number;
  readonly message?: string;
}

/** Receives progress events. */
export type ProgressListener = (progress: UpdateProgress) => void;

/** Mutable counters of a pass in progress. */
export class PassCounters {
  filesChanged = 0;
  embedded = 0;
  reused = 0;
  removed = 0;
  readonly skipped: SkippedFile[] = [];
}
