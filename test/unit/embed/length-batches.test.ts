import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inputOrderBatches, lengthBatches, paddingStats } from '../../../src/embed/length-batches.js';

describe('lengthBatches', () => {
  it('groups by ascending length, closing a batch at the row cap', () => {
    expect(lengthBatches([5, 1, 3, 2, 4], { maxRows: 2, maxTokens: Infinity })).toEqual([[1, 3], [2, 4], [0]]);
  });

  it('closes a batch when rows x the longest row would pass the token budget; a long row runs alone', () => {
    // Sorted: 10, 10, 10, 30, 300. Three tens fit 32 tokens; 30 joining would pad 4 x 30.
    expect(lengthBatches([30, 10, 300, 10, 10], { maxRows: 8, maxTokens: 32 })).toEqual([[1, 3, 4], [0], [2]]);
  });

  it('keeps equal lengths in input order and returns nothing for no input', () => {
    expect(lengthBatches([7, 7, 7, 7], { maxRows: 3, maxTokens: Infinity })).toEqual([[0, 1, 2], [3]]);
    expect(lengthBatches([], { maxRows: 4, maxTokens: 100 })).toEqual([]);
  });

  it('puts every index in exactly one batch within the limits (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 256 }), { maxLength: 200 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 4096 }),
        (lengths, maxRows, maxTokens) => {
          const batches = lengthBatches(lengths, { maxRows, maxTokens });
          expect(batches.flat().sort((a, b) => a - b)).toEqual(lengths.map((_, i) => i));
          let previous = 0;
          for (const batch of batches) {
            expect(batch.length).toBeGreaterThan(0);
            expect(batch.length).toBeLessThanOrEqual(maxRows);
            const longest = Math.max(...batch.map((i) => lengths[i]!));
            if (batch.length > 1) expect(batch.length * longest).toBeLessThanOrEqual(maxTokens);
            // Batches follow each other in ascending length.
            expect(lengths[batch[0]!]!).toBeGreaterThanOrEqual(previous);
            previous = longest;
          }
        },
      ),
    );
  });
});

describe('paddingStats', () => {
  it('counts real tokens, padded tokens and the share of padding', () => {
    const lengths = [4, 2, 2, 8];
    expect(paddingStats(lengths, inputOrderBatches(4, 2))).toEqual({ real: 16, padded: 8 + 16, waste: 8 / 24 });
    expect(paddingStats(lengths, lengthBatches(lengths, { maxRows: 2, maxTokens: Infinity }))).toEqual({ real: 16, padded: 4 + 16, waste: 4 / 20 });
    expect(paddingStats([], [])).toEqual({ real: 0, padded: 0, waste: 0 });
  });
});
