import { describe, expect, it } from 'vitest';
import { rankFiles, RANKING_PRIORS, type RankedFacts } from '../../../src/retrieve/rank-files.js';

const rank = (files: RankedFacts[]): string[] => rankFiles(files, { highThreshold: 0.7, key: (f) => f }).map((f) => f.path);

describe('rankFiles', () => {
  it('orders by relevance when the gaps are wider than the priors', () => {
    expect(rank([
      { path: 'b/low.ts', relevance: 0.3, firstSeen: 1 },
      { path: 'a/high.ts', relevance: 0.9, firstSeen: 2 },
      { path: 'c/mid.ts', relevance: 0.6, firstSeen: 3 },
    ])).toEqual(['a/high.ts', 'c/mid.ts', 'b/low.ts']);
  });

  it('puts a file beside a high result ahead of an equally relevant file elsewhere', () => {
    const order = rank([
      { path: 'src/other/far.ts', relevance: 0.5, firstSeen: 1 },
      { path: 'src/net/throttle.ts', relevance: 0.9, firstSeen: 1 },
      { path: 'src/net/bucket.ts', relevance: 0.5, firstSeen: 1 },
    ]);
    expect(order).toEqual(['src/net/throttle.ts', 'src/net/bucket.ts', 'src/other/far.ts']);
  });

  it('gives a high file no bonus for its own folder, only for another high file there', () => {
    // alone/a.ts is the only high file in its folder: 0.8 + 0 stays below pair/x.ts at 0.75 + besideHigh.
    const order = rank([
      { path: 'alone/a.ts', relevance: 0.8, firstSeen: 1 },
      { path: 'pair/x.ts', relevance: 0.75, firstSeen: 1 },
      { path: 'pair/y.ts', relevance: 0.71, firstSeen: 1 },
    ]);
    expect(RANKING_PRIORS.besideHigh).toBeGreaterThan(0.05);
    expect(order).toEqual(['pair/x.ts', 'alone/a.ts', 'pair/y.ts']);
  });

  it('breaks a near-tie toward the file the first cycle found', () => {
    expect(rank([
      { path: 'a/later.ts', relevance: 0.52, firstSeen: 2 },
      { path: 'b/first.ts', relevance: 0.5, firstSeen: 1 },
    ])).toEqual(['b/first.ts', 'a/later.ts']);
  });

  it('ranks answers of the related band before context files, and context before weaker answers', () => {
    expect(rank([
      { path: 'util/bucket.ts', relevance: 0.55, firstSeen: 2, isContext: true },
      { path: 'net/limit.ts', relevance: 0.45, firstSeen: 1 },
      { path: 'net/throttle.ts', relevance: 0.9, firstSeen: 1 },
      { path: 'misc/far.ts', relevance: 0.3, firstSeen: 1 },
      { path: 'http/pipeline.ts', relevance: 0.5, firstSeen: 2, isContext: true },
    ])).toEqual(['net/throttle.ts', 'net/limit.ts', 'util/bucket.ts', 'http/pipeline.ts', 'misc/far.ts']);
  });

  it('ranks a context file judged below the related band with the weak answers, by score', () => {
    // The judge called the definition irrelevant: it must not sit above a weak answer the judge scored higher.
    expect(rank([
      { path: 'util/types.ts', relevance: 0.1, firstSeen: 2, isContext: true, tieBreak: 0.9 },
      { path: 'net/missed.ts', relevance: 0.1, firstSeen: 1, tieBreak: 0.95 },
      { path: 'misc/far.ts', relevance: 0.3, firstSeen: 1 },
      { path: 'http/pipeline.ts', relevance: 0.5, firstSeen: 2, isContext: true },
    ])).toEqual(['http/pipeline.ts', 'misc/far.ts', 'net/missed.ts', 'util/types.ts']);
  });

  it('takes another judge at its word: no priors, and its ties go by the built-in judge', () => {
    expect(rank([
      { path: 'a/x.ts', relevance: 0.85, firstSeen: 2, tieBreak: 0.3 },
      { path: 'b/y.ts', relevance: 0.85, firstSeen: 1, tieBreak: 0.2 },
      { path: 'c/z.ts', relevance: 0.8, firstSeen: 1, tieBreak: 0.9 },
    ])).toEqual(['a/x.ts', 'b/y.ts', 'c/z.ts']);
  });
});
