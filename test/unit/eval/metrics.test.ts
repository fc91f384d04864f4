import { describe, expect, it } from 'vitest';
import {
  distinctPaths,
  percentile,
  recallAtK,
  reciprocalRank,
  scoreTask,
  summarize,
  symbolHit,
  type TaskOutcome,
} from '../../../scripts/eval/metrics.js';

const files = (...paths: string[]) => paths.map((path) => ({ path }));

describe('distinctPaths', () => {
  it('keeps the first occurrence of each path in rank order', () => {
    expect(distinctPaths(files('b', 'a', 'b', 'c', 'a'))).toEqual(['b', 'a', 'c']);
  });
});

describe('commit2files', () => {
  const gold = files('x.ts', 'y.ts');

  it('scores two gold files with one at rank 3: R@1 0, R@5 0.5, R@10 0.5, MRR 1/3', () => {
    const s = scoreTask({ kind: 'commit2files', results: files('a.ts', 'b.ts', 'x.ts', 'c.ts'), gold });
    expect(s).toEqual({ answered: true, recall1: 0, recall5: 0.5, recall10: 0.5, mrr10: 1 / 3, symbolHit10: null });
  });

  it('counts ranks over distinct files, not chunks', () => {
    // Chunks a, a, b, a, y -> files a, b, y: y is rank 3 among files though rank 5 among chunks.
    const s = scoreTask({ kind: 'commit2files', results: files('a.ts', 'a.ts', 'b.ts', 'a.ts', 'y.ts'), gold });
    expect(s.mrr10).toBe(1 / 3);
    expect(s.recall5).toBe(0.5);
  });

  it('gives the fraction of gold found, with duplicate gold paths counted once', () => {
    const ranked = ['x.ts', 'a', 'b', 'c', 'd', 'y.ts'];
    expect(recallAtK({ kind: 'commit2files', files: ranked, gold: files('x.ts', 'y.ts', 'x.ts'), k: 5 })).toBe(0.5);
    expect(recallAtK({ kind: 'commit2files', files: ranked, gold: files('x.ts', 'y.ts', 'x.ts'), k: 6 })).toBe(1);
  });
});

describe('doc2code', () => {
  const gold = [
    { path: 'src/a.ts', symbol: 'f', startLine: 10, endLine: 20 },
    { path: 'src/b.ts', symbol: 'f', startLine: 3, endLine: 4 },
  ];

  it('recall is 1 when any gold path is in the top k', () => {
    const ranked = ['z', 'src/b.ts'];
    expect(recallAtK({ kind: 'doc2code', files: ranked, gold, k: 1 })).toBe(0);
    expect(recallAtK({ kind: 'doc2code', files: ranked, gold, k: 5 })).toBe(1);
  });

  it('symbol hit needs the same path and overlapping lines (inclusive ends)', () => {
    expect(symbolHit([{ path: 'src/a.ts', startLine: 20, endLine: 30 }], gold)).toBe(1);
    expect(symbolHit([{ path: 'src/a.ts', startLine: 1, endLine: 10 }], gold)).toBe(1);
    expect(symbolHit([{ path: 'src/a.ts', startLine: 21, endLine: 30 }], gold)).toBe(0);
    expect(symbolHit([{ path: 'src/c.ts', startLine: 10, endLine: 20 }], gold)).toBe(0);
  });

  it('symbol hit looks only at the first 10 results, before reduction to files', () => {
    const ten = Array.from({ length: 10 }, () => ({ path: 'src/a.ts', startLine: 100, endLine: 120 }));
    expect(symbolHit([...ten, { path: 'src/a.ts', startLine: 12, endLine: 14 }], gold)).toBe(0);
    expect(symbolHit([...ten.slice(1), { path: 'src/a.ts', startLine: 12, endLine: 14 }], gold)).toBe(1);
  });

  it('a file-only result never hits at symbol level but counts at file level', () => {
    const s = scoreTask({ kind: 'doc2code', results: [{ path: 'src/a.ts' }], gold });
    expect(s).toEqual({ answered: true, recall1: 1, recall5: 1, recall10: 1, mrr10: 1, symbolHit10: 0 });
  });

  it('MRR counts only the top 10 files', () => {
    const ranked = [...Array.from({ length: 10 }, (_, i) => `f${i}`), 'src/a.ts'];
    expect(reciprocalRank(ranked, gold)).toBe(0);
    expect(reciprocalRank(ranked.slice(1), gold)).toBe(1 / 10);
  });

  it('a task without results scores 0 and is not answered', () => {
    expect(scoreTask({ kind: 'doc2code', results: [], gold })).toEqual({ answered: false, recall1: 0, recall5: 0, recall10: 0, mrr10: 0, symbolHit10: 0 });
  });
});

describe('summarize', () => {
  it('averages scores, cycles and latency, with a nearest-rank p95', () => {
    const outcome = (r: number, latencyMs: number, answered = true): TaskOutcome => ({
      score: { answered, recall1: r, recall5: r, recall10: r, mrr10: r / 2, symbolHit10: r },
      cycles: 2,
      files: 4,
      latencyMs,
    });
    const s = summarize([outcome(1, 10), outcome(0, 30, false), outcome(1, 20), outcome(0, 40)]);
    expect(s).toEqual({
      tasks: 4, answered: 3, recall1: 0.5, recall5: 0.5, recall10: 0.5, mrr10: 0.25, symbolHit10: 0.5,
      meanCycles: 2, meanFiles: 4, meanLatencyMs: 25, p95LatencyMs: 40,
    });
  });

  it('percentile picks the nearest rank', () => {
    const values = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(percentile(values, 95)).toBe(19);
    expect(percentile(values, 50)).toBe(10);
    expect(percentile([], 95)).toBe(0);
  });
});
