/**
 * Length-bucketed batching: which inputs share a forward pass. Inputs are sorted by token length so a batch
 * holds texts of similar length (little padding), and a batch closes at a row cap or a padded-token budget,
 * so short texts are grouped and long ones run alone.
 */

/** Limits of one batch. */
export interface BatchLimits {
  /** Most rows (texts) in one batch; 1 means every text alone. */
  readonly maxRows: number;
  /** Most padded tokens (rows × the longest row) in one batch; a single row may exceed it. */
  readonly maxTokens: number;
}

/**
 * Indices of `lengths` grouped into batches of similar length: ascending length (ties by input index, so the
 * plan is deterministic), each batch as long as its padded size stays within `limits`. Every index appears once.
 */
export function lengthBatches(lengths: readonly number[], limits: BatchLimits): number[][] {
  const maxRows = Math.max(1, Math.floor(limits.maxRows));
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[a]! - lengths[b]! || a - b);
  const batches: number[][] = [];
  let current: number[] = [];
  for (const i of order) {
    // Ascending order: the newcomer is the longest row of the batch it would join.
    const padded = (current.length + 1) * lengths[i]!;
    if (current.length > 0 && (current.length >= maxRows || padded > limits.maxTokens)) {
      batches.push(current);
      current = [];
    }
    current.push(i);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** Indices in input order, cut every `rows`: batching without sorting (the benchmark's baseline). */
export function inputOrderBatches(count: number, rows: number): number[][] {
  const batches: number[][] = [];
  for (let start = 0; start < count; start += Math.max(1, rows)) {
    batches.push(Array.from({ length: Math.min(rows, count - start) }, (_, j) => start + j));
  }
  return batches;
}

/** Real and padded token counts of a batch plan. */
export interface PaddingStats {
  /** Tokens of the inputs themselves. */
  readonly real: number;
  /** Tokens the model computes: rows × the longest row, summed over batches. */
  readonly padded: number;
  /** Share of computed tokens that are padding, 0..1. */
  readonly waste: number;
}

/** How much of a batch plan's computed tokens are padding. */
export function paddingStats(lengths: readonly number[], batches: readonly (readonly number[])[]): PaddingStats {
  let real = 0;
  let padded = 0;
  for (const batch of batches) {
    let longest = 0;
    for (const i of batch) {
      real += lengths[i]!;
      longest = Math.max(longest, lengths[i]!);
    }
    padded += longest * batch.length;
  }
  return { real, padded, waste: padded === 0 ? 0 : (padded - real) / padded };
}
